import { data, Form, Link } from "react-router";
import type { Route } from "./+types/hoja";
import { listActiveDrivers, loadRouteSheets, moveRouteStop } from "@server/deliveries/index.server";
import { RouteSheetView } from "~/components/admin/route-sheet";
import { dbContext } from "~/server/db-context.server";
import { dispatchDateParam, moveStopSchema } from "~/lib/dispatch-schemas";
import { isPlainLine } from "@core/input-schemas";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { readFormData } from "~/server/request-body.server";
import { allowStaff, staffActor } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("despacho.usar")];

/** `?fecha=` (default today in Lima) and the optional `?repartidor=`; anything malformed is a Spanish 404. */
function sheetParams(request: Request) {
  const params = new URL(request.url).searchParams;
  const date = dispatchDateParam(params.get("fecha"), limaToday(new Date()));
  if (!date) throw data("Fecha no válida: usa el formato AAAA-MM-DD.", { status: 404 });
  const driverId = params.get("repartidor") || null;
  if (driverId !== null && (driverId.length > 200 || !isPlainLine(driverId))) throw data("Repartidor no encontrado", { status: 404 });
  return { date, driverId };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const { date, driverId } = sheetParams(request);
  const [sheets, drivers] = await Promise.all([loadRouteSheets(db, { date, driverId }), listActiveDrivers(db)]);
  const driver = driverId ? drivers.find((each) => each.id === driverId) : null;
  if (driverId && !driver && sheets.length === 0) throw data("Repartidor no encontrado", { status: 404 });
  return { date, sheets, driverName: driver?.name ?? sheets[0]?.driverName ?? null, onlyOne: Boolean(driverId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  sheetParams(request);
  const parsed = moveStopSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!parsed.success) return data({ ok: false, message: parsed.error.issues[0]?.message ?? "La solicitud no es válida." }, { status: 400 });
  const result = await moveRouteStop(context.get(dbContext), staffActor(context, request), {
    deliveryId: parsed.data.envio,
    direction: parsed.data.intent === "subir" ? "up" : "down",
    fromPosition: parsed.data.posicion,
    now: new Date(),
  });
  if (result === "not_found") throw data("Parada no encontrada", { status: 404 });
  if (result === "unchanged")
    return data({ ok: false, message: "La parada ya no estaba en ese lugar (¿doble clic?); revisa el orden de la hoja." }, { status: 409 });
  return { ok: true, message: "Orden de la ruta actualizado." };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `Hoja de ruta ${loaderData.date}${loaderData.driverName && loaderData.onlyOne ? ` · ${loaderData.driverName}` : ""} · Back office`
      : "Hoja de ruta · Back office",
  },
  { name: "robots", content: "noindex,nofollow" },
];

export default function AdminRouteSheets({ loaderData, actionData }: Route.ComponentProps) {
  const { date, sheets } = loaderData;
  const search = `fecha=${date}${loaderData.onlyOne && sheets[0] ? `&repartidor=${encodeURIComponent(sheets[0].driverId)}` : ""}`;
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h1 className="text-2xl font-bold text-slate-900">Hojas de ruta</h1>
        <div className="flex flex-wrap items-center gap-3">
          <Link to={`/admin/despacho?fecha=${date}`} className="font-semibold text-brand-800 underline">
            ← Volver a Despacho
          </Link>
          <span className="text-sm text-slate-700">Para imprimir: Ctrl + P (una hoja por repartidor).</span>
        </div>
      </div>
      {actionData?.message && (
        <p
          role={actionData.ok ? "status" : "alert"}
          className={`mb-4 rounded-xl p-4 font-semibold print:hidden ${actionData.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
        >
          {actionData.message}
        </p>
      )}
      {sheets.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">
          No hay paradas asignadas {loaderData.driverName ? `a ${loaderData.driverName} ` : ""}para el {formatLimaDate(date)}.
        </p>
      ) : (
        sheets.map((sheet) => (
          <RouteSheetView
            key={sheet.driverId}
            sheet={sheet}
            moveForm={(children) => (
              <Form method="post" action={`/admin/despacho/hoja?${search}`} className="flex gap-1 print:hidden">
                {children}
              </Form>
            )}
          />
        ))
      )}
    </>
  );
}
