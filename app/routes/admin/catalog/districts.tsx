import { Link } from "react-router";
import type { Route } from "./+types/districts";
import { listDistrictsForStaff, type DistrictListRow } from "@server/deliveries/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { limaToday, weekdayNames } from "@core/lima-dates";
import { dbContext } from "~/server/db-context.server";
import { allowStaffPage } from "~/server/staff.server";

/**
 * Issue 11: every district of the shop's table — served or not, its weekdays, its own cut-off and
 * places — each opening its own page. Holidays and closed days stay at /admin/calendario.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/distritos")];

export async function loader({ context }: Route.LoaderArgs) {
  return { districts: await listDistrictsForStaff(context.get(dbContext), limaToday(new Date())) };
}

export const meta: Route.MetaFunction = () => [{ title: "Distritos · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const shortDays = (dayNumbers: number[]) => (dayNumbers.length === 0 ? "Sin días" : dayNumbers.map((day) => weekdayNames[day]!.slice(0, 3)).join(", "));

export default function AdminDistricts({ loaderData }: Route.ComponentProps) {
  const served = loaderData.districts.filter((district) => district.served);
  const unserved = loaderData.districts.filter((district) => !district.served);
  return (
    <div className="max-w-4xl">
      <AdminPageHeader title="Distritos">
        <Link to="/admin/calendario" className="font-semibold text-brand-700 underline">
          Feriados, días cerrados y cupo general
        </Link>
      </AdminPageHeader>
      <DistrictList title={`Con reparto (${served.length})`} id="con-reparto" districts={served} />
      <DistrictList title={`Sin reparto (${unserved.length})`} id="sin-reparto" districts={unserved} />
    </div>
  );
}

function DistrictList({ title, id, districts }: { title: string; id: string; districts: DistrictListRow[] }) {
  return (
    <section aria-labelledby={id} className="mb-8">
      <h2 id={id} className="mb-3 text-lg font-bold text-slate-900">
        {title}
      </h2>
      {districts.length === 0 && <p className="text-sm text-slate-600">Ninguno.</p>}
      <ul className="space-y-2">
        {districts.map((district) => (
          <li key={district.id} className="rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-100">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <Link to={`/admin/distritos/${district.id}`} className="font-semibold break-words text-brand-800 underline">
                {district.name}
              </Link>
              <span className="text-sm text-slate-600">{district.province}</span>
            </div>
            <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
              {district.served && <span>Días: {shortDays(district.dayNumbers)}</span>}
              {district.cutoffTime && <span>Corte propio: {district.cutoffTime}</span>}
              {district.ownCapacities > 0 && <span>Cupos propios: {district.ownCapacities}</span>}
              {district.openDeliveries > 0 && <span>Entregas pendientes: {district.openDeliveries}</span>}
              {district.liveSubscriptions > 0 && <span>Suscripciones vigentes: {district.liveSubscriptions}</span>}
              {district.hasNotes && <span>Con notas</span>}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
