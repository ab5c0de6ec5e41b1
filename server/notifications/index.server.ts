export { enqueueEmail, type EmailMessage } from "./outbox";
export { orderConfirmationEmail, type OrderConfirmationData } from "./templates/order-confirmation";
