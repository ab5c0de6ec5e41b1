import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import { button, emailLayout, escapeHtml } from "./layout";

export interface DeliveryRescheduledData {
  brandName: string;
  firstName: string;
  orderNumber: string;
  deliveryNumber: string;
  /** The new Lima date, YYYY-MM-DD. */
  date: string;
  deliveryWindow: string;
  receiptUrl: string;
}

/** Issue 10: a delivery staff moved to another day; the customer hears the new date. */
export function deliveryRescheduledEmail(data: DeliveryRescheduledData) {
  const subject = `Nueva fecha de entrega para tu pedido ${data.orderNumber}`;
  const when = `${formatLimaDate(data.date, { weekday: "long", day: "numeric", month: "long", year: "numeric" })}, ${deliveryWindowLabel(data.deliveryWindow)}`;
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Reprogramamos la entrega <strong>${escapeHtml(data.deliveryNumber)}</strong> de tu pedido <strong>${escapeHtml(data.orderNumber)}</strong>.</p>
<p>Nueva fecha: <strong>${escapeHtml(when)}</strong>.</p>
<p>Si esa fecha no te acomoda, responde este correo o escríbenos por WhatsApp.</p>
<p style="margin:24px 0">${button(data.receiptUrl, "Ver mi pedido")}</p>`,
  });
  const text = [
    `Hola, ${data.firstName}`,
    `Reprogramamos la entrega ${data.deliveryNumber} de tu pedido ${data.orderNumber}.`,
    `Nueva fecha: ${when}.`,
    "Si esa fecha no te acomoda, responde este correo o escríbenos por WhatsApp.",
    `Ver tu pedido: ${data.receiptUrl}`,
  ].join("\n");
  return { subject, html, text };
}

export interface DayRescheduledData {
  brandName: string;
  firstName: string;
  /** The closed Lima date, YYYY-MM-DD. */
  fromDate: string;
  reason: string | null;
  deliveries: { orderNumber: string; deliveryNumber: string; date: string; deliveryWindow: string; receiptUrl: string }[];
}

/** Issue 11: every delivery of a day moved (an unexpected closure): one e-mail per customer listing each new date. */
export function dayRescheduledEmail(data: DayRescheduledData) {
  const longDate = (date: string) => formatLimaDate(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
  const subject = `Cambiamos la fecha de tu entrega del ${formatLimaDate(data.fromDate, { day: "numeric", month: "long" })}`;
  const lines = data.deliveries.map((row) => ({
    ...row,
    when: `${longDate(row.date)}, ${deliveryWindowLabel(row.deliveryWindow)}`,
  }));
  const why = data.reason ? ` (${data.reason})` : "";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>El ${escapeHtml(longDate(data.fromDate))} no podremos hacer entregas${escapeHtml(why)}. Reprogramamos lo que tenías para ese día:</p>
<ul>${lines
      .map(
        (row) =>
          `<li>Entrega <strong>${escapeHtml(row.deliveryNumber)}</strong> del pedido <strong>${escapeHtml(row.orderNumber)}</strong>: <strong>${escapeHtml(row.when)}</strong>. <a href="${escapeHtml(row.receiptUrl)}">Ver pedido</a></li>`,
      )
      .join("")}</ul>
<p>Si esa fecha no te acomoda, responde este correo o escríbenos por WhatsApp.</p>`,
  });
  const text = [
    `Hola, ${data.firstName}`,
    `El ${longDate(data.fromDate)} no podremos hacer entregas${why}. Reprogramamos lo que tenías para ese día:`,
    ...lines.map((row) => `- Entrega ${row.deliveryNumber} del pedido ${row.orderNumber}: ${row.when}. Ver pedido: ${row.receiptUrl}`),
    "Si esa fecha no te acomoda, responde este correo o escríbenos por WhatsApp.",
  ].join("\n");
  return { subject, html, text };
}
