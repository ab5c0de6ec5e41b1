export { createFlowClient, type FlowClient } from "./client";
export {
  flowRegistrationStatus,
  startFlowCardRegistration,
  FLOW_REGISTER_NOTIFY_PATH,
  FLOW_REGISTER_RETURN_PATH,
  type FlowRegistrationStart,
  type FlowRegistrationStatus,
} from "./registration";
