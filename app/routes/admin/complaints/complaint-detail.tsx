import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/complaint-detail";
import { answerComplaint, complaintDeadline, findComplaintById } from "@server/complaints/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { StaffFormError, staffInputClass, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { FieldError } from "~/components/ui/form-field";
import { ComplaintSheet } from "~/components/complaints/complaint-sheet";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { complaintAnswerSchema } from "@core/complaints-book";
import { isUuid } from "@core/input-schemas";
import { formatLimaDate } from "@core/lima-dates";

export const middleware: Route.MiddlewareFunction[] = [allowStaff("reclamos.atender")];

function complaintIdParam(value: string | undefined): string {
  if (!value || !isUuid(value)) throw data("Hoja de reclamación no encontrada", { status: 404 });
  return value;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const sheet = await findComplaintById(db, complaintIdParam(params.complaintId));
  if (!sheet) throw data("Hoja de reclamación no encontrada", { status: 404 });
  const { deadline, countdown } = await complaintDeadline(db, sheet.filedOn, { now: new Date() });
  return { sheet, deadline, countdown, justAnswered: new URL(request.url).searchParams.get("aviso") === "respondida" };
}

/** Section 4 of the sheet: the answer is appended (the sheet is never edited), e-mailed and audited. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const complaintId = complaintIdParam(params.complaintId);
  const form = await readFormData(request);
  const answer = typeof form.get("answer") === "string" ? String(form.get("answer")) : "";
  const parsed = complaintAnswerSchema.safeParse({ answer });
  if (!parsed.success) return data({ answer, fieldError: parsed.error.issues[0]?.message ?? "Escribe la respuesta", error: null }, { status: 400 });
  const result = await answerComplaint(context.get(dbContext), staffActor(context, request), { complaintId, answer: parsed.data.answer }, { now: new Date() });
  if (!result.ok && result.reason === "not_found") throw data("Hoja de reclamación no encontrada", { status: 404 });
  if (!result.ok) return data({ answer, fieldError: null, error: "Esta hoja ya fue respondida. La respuesta no se puede cambiar." }, { status: 400 });
  return redirect(`/admin/reclamos/${complaintId}?aviso=respondida`, { status: 303 });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Hoja N° ${loaderData?.sheet.sheetNumber ?? ""} · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

export default function AdminComplaintDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { sheet, deadline, countdown, justAnswered } = loaderData;
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title={`Hoja N° ${sheet.sheetNumber}`} />
      {justAnswered && (
        <p role="status" className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
          Respuesta registrada. Se envió al correo del consumidor.
        </p>
      )}
      <p className="mb-4 text-slate-700">
        Plazo de respuesta: <strong>{formatLimaDate(deadline, { weekday: "long", day: "numeric", month: "long", year: "numeric" })}</strong>
        {sheet.answer ? " · Respondida" : ` · ${countdown.label}`}
        {sheet.orderId && (
          <>
            {" · "}
            <Link to={`/admin/pedidos/${sheet.orderId}`} className="font-semibold text-brand-800 underline">
              Ver pedido
            </Link>
          </>
        )}
      </p>
      <ComplaintSheet sheet={sheet} />
      {!sheet.answer && (
        <Form method="post" className="mt-6 space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
          <h2 className="text-lg font-bold text-slate-900">Registrar la respuesta</h2>
          <StaffFormError message={actionData?.error} />
          <p className="text-slate-700">
            La respuesta se envía a <strong className="break-all">{sheet.consumerEmail}</strong> y se agrega a la hoja (sección 4). No se puede cambiar después.
          </p>
          <div>
            <label htmlFor="answer" className="mb-1 block font-semibold text-slate-800">
              Observaciones y acciones adoptadas por el proveedor
            </label>
            <textarea
              id="answer"
              name="answer"
              rows={6}
              required
              maxLength={5000}
              defaultValue={actionData?.answer ?? ""}
              aria-invalid={actionData?.fieldError ? true : undefined}
              aria-describedby={actionData?.fieldError ? "answer-error" : undefined}
              className={staffInputClass}
            />
            <FieldError id="answer-error" message={actionData?.fieldError ?? undefined} />
          </div>
          <button type="submit" className={staffPrimaryButtonClass}>
            Enviar respuesta
          </button>
        </Form>
      )}
      <p className="mt-6">
        <Link to="/admin/reclamos" className="font-semibold text-brand-800 underline">
          Volver al Libro de Reclamaciones
        </Link>
      </p>
    </div>
  );
}
