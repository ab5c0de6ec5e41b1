export * from "./catalog";
export * from "./districts";
export * from "./content";
