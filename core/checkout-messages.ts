/** Spec §8 "Response says failure": the server answered, and refused to create the order. */
export const ORDER_NOT_GENERATED = "No se pudo generar la orden";
/** Spec §4 checkout flow: the order exists and the customer completes the payment by its instructions. */
export const ORDER_GENERATED_FOLLOW_INSTRUCTIONS = "Orden generada. Sigue las instrucciones para completar el pago.";
