import { formatWhatsappNumber } from "@core/whatsapp";
import { formatLimaInstant } from "@core/lima-dates";

export interface WhatsappMessageView {
  id: string;
  title: string;
  to: string;
  status: string;
  statusLabel: string;
  reason: string | null;
  text: string;
  createdAt: string;
  lastChangeAt: string;
}

const TONES: Record<string, string> = {
  read: "bg-emerald-100 text-emerald-900",
  delivered: "bg-emerald-100 text-emerald-900",
  accepted: "bg-sky-100 text-sky-900",
  sent: "bg-sky-100 text-sky-900",
  failed: "bg-red-100 text-red-900",
  dead: "bg-red-100 text-red-900",
  withheld: "bg-slate-200 text-slate-800",
};

/**
 * Issue 25, /admin/pedidos/{id}: each WhatsApp message about the order with its state (Enviado,
 * Entregado, Leído, Fallido and why), when it last changed, and what the customer read.
 */
export function StaffWhatsappMessages({ messages }: { messages: WhatsappMessageView[] }) {
  if (messages.length === 0)
    return <p className="text-sm text-slate-600">Sin mensajes de WhatsApp (el cliente no activó los avisos o aún no hubo novedades).</p>;
  return (
    <ul className="space-y-3 text-sm" data-testid="staff-order-whatsapp">
      {messages.map((message) => (
        <li key={message.id} className="min-w-0" data-testid="whatsapp-message">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-900">{message.title}</span>
            <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONES[message.status] ?? "bg-amber-100 text-amber-900"}`}>
              {message.statusLabel}
            </span>
          </div>
          <p className="text-slate-600">
            A {formatWhatsappNumber(message.to)} · {formatLimaInstant(message.lastChangeAt)}
          </p>
          {message.reason && <p className="break-words text-red-800">{message.reason}</p>}
          <details className="mt-1">
            <summary className="cursor-pointer text-brand-800 underline">Ver texto</summary>
            <p className="mt-1 break-words whitespace-pre-line text-slate-800">{message.text}</p>
          </details>
        </li>
      ))}
    </ul>
  );
}
