import { readFileSync } from "node:fs";
import { districtsCsvPath } from "../project-files";

/** Spanish weekday names as the spec matches them; number 7 is Sunday (spec §5). */
export const weekdayNumbers: Record<string, number> = {
  lunes: 1,
  martes: 2,
  miércoles: 3,
  jueves: 4,
  viernes: 5,
  sábado: 6,
  domingo: 7,
};

export interface SeedDistrict {
  ubigeo: string;
  name: string;
  province: string;
  served: boolean;
  dayNumbers: number[];
}

/** Reads the 43 + 7 districts of Lima and Callao with the demo delivery weekdays. */
export function readSeedDistricts(): SeedDistrict[] {
  const csv = readFileSync(districtsCsvPath, "utf8");
  const [, ...rows] = csv.trim().split(/\r?\n/);
  return rows.map((row) => {
    const [ubigeo = "", name = "", province = "", served = "", weekdays = ""] = row.split(",");
    const dayNumbers = weekdays
      .split(";")
      .filter(Boolean)
      .map((day) => {
        const number = weekdayNumbers[day.trim()];
        if (!number) throw new Error(`Unknown weekday "${day}" for district ${name}`);
        return number;
      });
    return { ubigeo, name, province, served: served === "yes", dayNumbers };
  });
}
