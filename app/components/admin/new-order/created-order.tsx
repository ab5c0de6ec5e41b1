import { Form, Link } from "react-router";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate, formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { MAX_OPEN_UNPAID_ORDERS } from "@core/door-payment";
import type { StaffPaymentChoice } from "@core/staff-order-form";

export interface CreatedOrder {
  orderId: string;
  orderNumber: string;
  customerName: string;
  phone: string;
  email: string;
  /** What the customer pays (the total less any garantía credit). */
  toPayCents: number;
  deliveryDate: string | null;
  deliveryWindow: string;
  payment: StaffPaymentChoice | null;
  code: { code: string; expiresAt: string | null } | null;
  /** "Código de pago" refused: the phone or address already holds the most unpaid orders allowed. */
  codeRefused: boolean;
  /** "Enviar link de pago": where it went. */
  linkSent: "correo" | "correo_whatsapp" | "no" | null;
}

function PanelButton({ orderId, intent, label }: { orderId: string; intent: "codigo" | "enviar_link"; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="pedido" value={orderId} />
      <button type="submit" className="rounded-xl border border-emerald-800 px-3 py-1.5 font-semibold">
        {label}
      </button>
    </Form>
  );
}

/** What the office tells the caller before hanging up: the number, the amount, the date, how to pay. */
export function CreatedOrderPanel({ order }: { order: CreatedOrder }) {
  return (
    <section
      role="status"
      aria-labelledby="creado-titulo"
      className="mb-6 rounded-2xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-950 sm:p-6"
      data-testid="created-order"
    >
      <h2 id="creado-titulo" className="text-lg font-bold">
        Pedido {order.orderNumber} creado
      </h2>
      <p className="mt-1 break-words">
        {order.customerName} · {order.phone} · {order.email}
      </p>
      <p className="mt-1">
        Total a pagar: <strong>{formatSoles(order.toPayCents)}</strong>
        {order.deliveryDate && (
          <>
            {" "}
            · Entrega: <span className="first-letter:uppercase">{formatLimaDate(order.deliveryDate)}</span>, {deliveryWindowLabel(order.deliveryWindow)}
          </>
        )}
      </p>
      {order.payment === "contra_entrega" && <p className="mt-2">Paga contra entrega, al repartidor.</p>}
      {order.payment === "link" && (
        <p className="mt-2">
          {order.linkSent === "correo_whatsapp"
            ? `Le enviamos el link de pago a ${order.email} y por WhatsApp.`
            : order.linkSent === "correo"
              ? `Le enviamos el link de pago a ${order.email} (su número no recibe avisos por WhatsApp).`
              : "No pudimos enviar el link de pago: revisa el pedido."}{" "}
          Si no paga a tiempo, el pedido se anula solo.
        </p>
      )}
      {order.payment === "codigo" &&
        (order.code ? (
          <p className="mt-2 text-lg">
            Código de pago para dictar: <strong data-testid="created-order-code">{order.code.code}</strong>
            {order.code.expiresAt && <span className="block text-base">Vence el {formatLimaInstant(order.code.expiresAt)}.</span>}
          </p>
        ) : (
          <div className="mt-2 space-y-2" role="alert">
            <p>
              {order.codeRefused
                ? `Ese celular o esa dirección ya tiene ${MAX_OPEN_UNPAID_ORDERS} pedidos por pagar: no podemos darle otro código. Envíale el link de pago (tarjeta o Yape, pagados al momento).`
                : "El medio de pago no dio un código ahora: pídelo otra vez o envíale el link de pago."}
            </p>
            <div className="flex flex-wrap gap-2">
              {!order.codeRefused && <PanelButton orderId={order.orderId} intent="codigo" label="Pedir el código otra vez" />}
              <PanelButton orderId={order.orderId} intent="enviar_link" label="Enviar link de pago" />
            </div>
          </div>
        ))}
      <p className="mt-3">
        <Link to={`/admin/pedidos/${order.orderId}`} className="font-semibold underline">
          Ver el pedido {order.orderNumber}
        </Link>
      </p>
    </section>
  );
}
