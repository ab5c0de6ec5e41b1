import { formatSoles } from "@core/money";
import { refundReasonLabels } from "@core/order-labels";

/** The admin's alarms on the back office's home, with every time already written out in Lima. */
export interface AlarmsView {
  deadEmails: { id: string; kind: string; to: string; subject: string; attempts: number; lastError: string | null; deadAt: string }[];
  deadWhatsapp: { id: string; title: string; to: string; orderId: string | null; reason: string; templateError: boolean; deadAt: string }[];
  rowFailures: { job: string; rowId: string; message: string; failures: number; lastFailedAt: string }[];
  openRefunds: { id: string; orderNumber: string | null; amountCents: number; status: string; reason: string; lastError: string | null; createdAt: string }[];
}

const refundStatusLabels: Record<string, string> = { pending: "Pendiente con el proveedor", manual: "Hacer a mano" };
const section = "mb-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100";
const row = "border-t border-slate-100 py-3 first:border-t-0";

export type RetryFormProps = { intent: "retry-email" | "retry-whatsapp"; id: string; label: string };

export function AdminAlarms({ alarms, RetryForm }: { alarms: AlarmsView; RetryForm: (props: RetryFormProps) => React.ReactNode }) {
  const total = alarms.deadEmails.length + alarms.deadWhatsapp.length + alarms.rowFailures.length + alarms.openRefunds.length;
  return (
    <section aria-labelledby="home-alarms" className="mb-6">
      <h2 id="home-alarms" className="mb-3 text-lg font-bold text-slate-900">
        Alarmas
      </h2>
      {total === 0 && <p className={section}>Nada requiere tu atención.</p>}

      {alarms.deadEmails.length > 0 && (
        <div className={section}>
          <h3 className="font-semibold text-slate-900">Correos que no se pudieron enviar ({alarms.deadEmails.length})</h3>
          <ul>
            {alarms.deadEmails.map((email) => (
              <li key={email.id} className={`${row} flex flex-wrap items-start justify-between gap-2`} data-testid="dead-email">
                <div className="min-w-0 text-sm">
                  <p className="break-all font-semibold text-slate-900">{email.subject}</p>
                  <p className="break-all text-slate-700">
                    Para {email.to} · {email.attempts} intentos · {email.deadAt}
                  </p>
                  {email.lastError && <p className="break-all text-red-800">{email.lastError}</p>}
                </div>
                <RetryForm intent="retry-email" id={email.id} label={`Reintentar el correo a ${email.to}`} />
              </li>
            ))}
          </ul>
        </div>
      )}

      {alarms.deadWhatsapp.length > 0 && (
        <div className={section} data-testid="dead-whatsapp-alarm">
          <h3 className="font-semibold text-slate-900">Mensajes de WhatsApp que no se pudieron enviar ({alarms.deadWhatsapp.length})</h3>
          {alarms.deadWhatsapp.some((message) => message.templateError) && (
            <p className="mt-1 text-sm text-slate-700">
              WhatsApp rechazó una plantilla: revisa en WhatsApp Manager que esté aprobada con el mismo nombre, idioma y parámetros (docs/whatsapp.md) y luego
              reintenta.
            </p>
          )}
          <ul>
            {alarms.deadWhatsapp.map((message) => (
              <li key={message.id} className={`${row} flex flex-wrap items-start justify-between gap-2`} data-testid="dead-whatsapp">
                <div className="min-w-0 text-sm">
                  <p className="break-all font-semibold text-slate-900">
                    {message.title}
                    {message.orderId && (
                      <>
                        {" · "}
                        <a href={`/admin/pedidos/${message.orderId}`} className="text-brand-800 underline">
                          ver pedido
                        </a>
                      </>
                    )}
                  </p>
                  <p className="break-all text-slate-700">
                    Para {message.to} · {message.deadAt}
                  </p>
                  <p className="break-words text-red-800">{message.reason}</p>
                </div>
                <RetryForm intent="retry-whatsapp" id={message.id} label={`Reintentar el WhatsApp «${message.title}» a ${message.to}`} />
              </li>
            ))}
          </ul>
        </div>
      )}

      {alarms.rowFailures.length > 0 && (
        <div className={section}>
          <h3 className="font-semibold text-slate-900">Tareas automáticas con filas fallidas ({alarms.rowFailures.length})</h3>
          <ul>
            {alarms.rowFailures.map((failure) => (
              <li key={`${failure.job}:${failure.rowId}`} className={`${row} text-sm`} data-testid="row-failure">
                <p className="break-all font-semibold text-slate-900">
                  {failure.job} · {failure.rowId}
                </p>
                <p className="break-all text-red-800">{failure.message}</p>
                <p className="text-slate-700">
                  {failure.failures} {failure.failures === 1 ? "vez" : "veces"} · última: {failure.lastFailedAt}
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}

      {alarms.openRefunds.length > 0 && (
        <div className={section}>
          <h3 className="font-semibold text-slate-900">Reembolsos por resolver ({alarms.openRefunds.length})</h3>
          <ul>
            {alarms.openRefunds.map((refund) => (
              <li key={refund.id} className={`${row} text-sm`} data-testid="open-refund">
                <p className="font-semibold text-slate-900">
                  Pedido {refund.orderNumber ?? "—"} · {formatSoles(refund.amountCents)} · {refundStatusLabels[refund.status] ?? refund.status}
                </p>
                <p className="text-slate-700">
                  {refundReasonLabels[refund.reason] ?? "Reembolso"} · desde {refund.createdAt}
                </p>
                {refund.lastError && <p className="break-all text-red-800">{refund.lastError}</p>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
