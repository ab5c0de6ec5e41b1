export * from "./catalog";
export * from "./districts";
export * from "./content";
export * from "./orders";
export * from "./payments";
export * from "./invoices";
export * from "./notifications";
