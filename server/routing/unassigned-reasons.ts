import { durationOf, earliestStart, type RoutingModel, type VehicleModel } from "./model";
import type { UnassignedReason } from "./vroom-format";

/**
 * Why a job is left out, the same for both engines (VROOM says only that it is): no vehicle has
 * its skills; its load alone is more than any such vehicle carries; no such vehicle could reach it
 * inside its window and be back in time even with nothing else to do; otherwise the fleet is full.
 */
export function unassignedReason(model: RoutingModel, job: number): UnassignedReason {
  const skilled = model.vehicles.filter((vehicle) => vehicle.eligible[job] === 1 && vehicle.maxTasks > 0);
  if (skilled.length === 0) return "skills";
  const roomy = skilled.filter((vehicle) => fitsAlone(model, vehicle, job));
  if (roomy.length === 0) return "capacity";
  if (!roomy.some((vehicle) => reachableAlone(model, vehicle, job))) return "time_window";
  return "fleet_full";
}

function fitsAlone(model: RoutingModel, vehicle: VehicleModel, job: number): boolean {
  for (let dim = 0; dim < model.dims; dim++) {
    const capacity = vehicle.capacity[dim]!;
    if (model.delivery[job * model.dims + dim]! > capacity || model.pickup[job * model.dims + dim]! > capacity) return false;
  }
  return true;
}

function reachableAlone(model: RoutingModel, vehicle: VehicleModel, job: number): boolean {
  const here = model.loc[job]!;
  const start = earliestStart(model, job, vehicle.twStart + durationOf(model, vehicle, vehicle.start, here));
  if (Number.isNaN(start)) return false;
  const back = start + (vehicle.start !== here ? model.setup[job]! : 0) + model.service[job]! + durationOf(model, vehicle, here, vehicle.end);
  return back <= vehicle.twEnd;
}

/** The reason in the shop's words, for Despacho (es-PE). */
export function describeUnassignedReason(reason: UnassignedReason): string {
  switch (reason) {
    case "skills":
      return "Ningún vehículo seleccionado puede atender esta entrega.";
    case "capacity":
      return "La carga de esta entrega no entra en ningún vehículo seleccionado.";
    case "time_window":
      return "Ningún vehículo llega dentro del horario de entrega y vuelve antes del fin de su turno.";
    case "fleet_full":
      return "Los vehículos seleccionados no tienen espacio ni tiempo para esta entrega.";
    case "unsupported":
      return "El optimizador integrado no atiende este tipo de tarea.";
  }
}
