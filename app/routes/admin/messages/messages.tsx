import { data, Form, Link } from "react-router";
import type { Route } from "./+types/messages";
import { listContactMessages, markContactMessageAttended } from "@server/contact/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";
import { formatLimaInstant } from "@core/lima-dates";
import { isUuid } from "@core/input-schemas";
import { listWhatsappThreads, markWhatsappMessageAttended, whatsappEnabled, type WhatsappThreadSummary } from "@server/whatsapp/index.server";
import { formatWhatsappNumber } from "@core/whatsapp";

/** Messages from /contact: operaciones answers them (admin always may). */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/mensajes")];

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const contact = await listContactMessages(db);
  // Issue 38: one conversation per number that wrote to the shop's WhatsApp, the latest first.
  const whatsapp = whatsappEnabled() ? await listWhatsappThreads(db) : null;
  return { ...contact, whatsapp };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  if (form.intent !== "attend" && form.intent !== "attend_whatsapp") return data({ ok: false, message: "Acción desconocida" }, { status: 400 });
  const messageId = typeof form.messageId === "string" ? form.messageId : "";
  const notFound = data({ ok: false, message: "No encontramos ese mensaje." }, { status: 404 });
  if (!isUuid(messageId)) return notFound;
  const result =
    form.intent === "attend_whatsapp"
      ? await markWhatsappMessageAttended(context.get(dbContext), staffActor(context, request), messageId, new Date())
      : await markContactMessageAttended(context.get(dbContext), staffActor(context, request), messageId);
  if (!result.ok) return notFound;
  return { ok: true, message: result.changed ? "Mensaje marcado como atendido." : "Ese mensaje ya estaba atendido." };
}

export const meta: Route.MetaFunction = () => [{ title: "Mensajes · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, pending, whatsapp } = loaderData;
  return (
    <>
      <AdminPageHeader title="Mensajes">
        <p className="text-sm text-slate-700" data-testid="pending-messages">
          {pending === 1 ? "1 mensaje por atender" : `${pending} mensajes por atender`}
        </p>
      </AdminPageHeader>
      {actionData?.message && (
        <div className="mb-4">
          <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>
        </div>
      )}
      {messages.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">Aún no llegan mensajes desde la página de contacto.</p>
      ) : (
        <ul className="space-y-3">
          {messages.map((message) => (
            <li key={message.id} data-testid="contact-message" className="min-w-0 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:p-5">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 className="min-w-0 font-bold break-words text-slate-900">{message.subject}</h2>
                <span
                  className={`rounded-full px-3 py-0.5 text-xs font-semibold ${message.attendedAt ? "bg-emerald-100 text-emerald-900" : "bg-amber-100 text-amber-900"}`}
                >
                  {message.attendedAt ? "Atendido" : "Por atender"}
                </span>
              </div>
              <p className="mt-1 text-sm break-words text-slate-700">
                {message.name} ·{" "}
                <a href={`mailto:${message.email}`} className="text-brand-800 underline">
                  {message.email}
                </a>
                {message.phone && <> · {message.phone}</>} · {formatLimaInstant(message.createdAt)}
              </p>
              <p className="mt-3 text-sm break-words whitespace-pre-line text-slate-900">{message.message}</p>
              {message.attendedAt ? (
                <p className="mt-3 text-xs text-slate-600">
                  Atendido {message.attendedByName ? `por ${message.attendedByName} ` : ""}el {formatLimaInstant(message.attendedAt)}
                </p>
              ) : (
                <Form method="post" className="mt-3">
                  <input type="hidden" name="intent" value="attend" />
                  <input type="hidden" name="messageId" value={message.id} />
                  <button
                    type="submit"
                    className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
                    aria-label={`Marcar como atendido: ${message.subject}`}
                  >
                    Marcar como atendido
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {whatsapp && <WhatsappInbox inbox={whatsapp} />}
    </>
  );
}

/** Who a conversation is with: the proven customer's name, else the WhatsApp profile name (not verified), else the number. */
function correspondentName(thread: WhatsappThreadSummary): string {
  if (thread.customer) return thread.customer.name;
  if (thread.profileName) return `${thread.profileName} (nombre de WhatsApp, sin verificar)`;
  return formatWhatsappNumber(thread.phone);
}

/**
 * Issue 38: one entry per number that wrote to the shop's WhatsApp, the latest conversation first,
 * with what waits for staff; each opens the conversation (inbound and outbound, in time order).
 */
function WhatsappInbox({ inbox }: { inbox: { threads: WhatsappThreadSummary[]; pending: number } }) {
  return (
    <section aria-labelledby="mensajes-whatsapp" className="mt-8">
      <h2 id="mensajes-whatsapp" className="mb-1 text-xl font-bold text-slate-900">
        WhatsApp
      </h2>
      <p className="mb-3 text-sm text-slate-700" data-testid="pending-whatsapp-messages">
        {inbox.pending === 1 ? "1 mensaje por atender" : `${inbox.pending} mensajes por atender`}. Las bajas (BAJA, STOP, NO) y los pedidos de «lo de siempre»
        se responden solos.
      </p>
      {inbox.threads.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">Aún no llegan mensajes por WhatsApp.</p>
      ) : (
        <ul className="space-y-3">
          {inbox.threads.map((thread) => (
            <li key={thread.phone} data-testid="whatsapp-thread" className="min-w-0 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:p-5">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="min-w-0 font-bold break-words text-slate-900">
                  <Link to={`/admin/mensajes/whatsapp/${thread.phone}`} className="text-brand-800 underline">
                    {correspondentName(thread)}
                  </Link>
                </h3>
                <span
                  className={`rounded-full px-3 py-0.5 text-xs font-semibold ${thread.pending > 0 ? "bg-amber-100 text-amber-900" : "bg-emerald-100 text-emerald-900"}`}
                >
                  {thread.pending === 0 ? "Al día" : thread.pending === 1 ? "1 por atender" : `${thread.pending} por atender`}
                </span>
              </div>
              <p className="mt-1 text-sm text-slate-700">
                {thread.customer || thread.profileName ? `${formatWhatsappNumber(thread.phone)} · ` : ""}
                {formatLimaInstant(thread.lastAt)}
              </p>
              <p className="mt-2 line-clamp-2 text-sm break-words text-slate-900">
                <span className="font-semibold">{thread.lastFromCustomer ? "Cliente: " : "Tienda: "}</span>
                {thread.lastText}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
