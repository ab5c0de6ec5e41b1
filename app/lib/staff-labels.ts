/** Spanish names of the staff roles, as the back office shows them. */
export const staffRoleLabels: Record<string, string> = {
  admin: "Administración",
  operaciones: "Operaciones",
  repartidor: "Repartidor",
};
