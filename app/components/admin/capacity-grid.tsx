import type { ReactNode } from "react";
import { deliveryWindows, type DeliveryWindow } from "@core/delivery-schedule";
import { weekdayNames } from "@core/lima-dates";

const DAYS = [1, 2, 3, 4, 5, 6, 7];
const WINDOWS = Object.keys(deliveryWindows) as DeliveryWindow[];

export interface CapacityCell {
  /** ISO weekday, 1 = Monday. */
  dayNumber: number;
  window: DeliveryWindow;
  /** The form field's name, which the domain also uses to say which cell it refused. */
  name: string;
}

/** Every weekday and delivery window, day by day, in the order the grid shows them. */
export const CAPACITY_CELLS: CapacityCell[] = DAYS.flatMap((dayNumber) =>
  WINDOWS.map((window) => ({ dayNumber, window, name: `capacity-${dayNumber}-${window}` })),
);

/** A whole number as typed, or NaN (which the domain refuses with its Spanish message). */
export const wholeNumber = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN);

/** What every place count's input has, whichever grid it is in. */
export interface CapacityInputProps {
  name: string;
  type: "number";
  min: number;
  max: number;
  inputMode: "numeric";
  "aria-label": string;
}

/**
 * Places per weekday and delivery window, one row a day (the shop-wide ones in /admin/calendario,
 * a district's own in /admin/distritos). Each page renders its own cell around the shared input props.
 */
export function CapacityGrid({
  cellClassName,
  renderCell,
}: {
  cellClassName: string;
  renderCell: (cell: CapacityCell, input: CapacityInputProps) => ReactNode;
}) {
  return (
    <table className="w-full text-sm">
      <thead>
        <tr className="text-left">
          <th scope="col" className="py-1">
            Día
          </th>
          {WINDOWS.map((window) => (
            <th key={window} scope="col" className="py-1">
              {deliveryWindows[window].label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {DAYS.map((dayNumber) => (
          <tr key={dayNumber}>
            <th scope="row" className="py-1 text-left font-semibold">
              {weekdayNames[dayNumber]}
            </th>
            {CAPACITY_CELLS.filter((cell) => cell.dayNumber === dayNumber).map((cell) => (
              <td key={cell.window} className={cellClassName}>
                {renderCell(cell, {
                  name: cell.name,
                  type: "number",
                  min: 0,
                  max: 9999,
                  inputMode: "numeric",
                  "aria-label": `${weekdayNames[dayNumber]}, ${deliveryWindows[cell.window].label}`,
                })}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
