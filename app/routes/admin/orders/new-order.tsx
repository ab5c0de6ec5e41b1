import { randomUUID } from "node:crypto";
import { data, Link, redirect, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/new-order";
import { listSellableLines } from "@server/catalog/index.server";
import { doorPaymentOffer } from "@server/checkout/index.server";
import { whatsappEnabled } from "@server/whatsapp/index.server";
import { loadCallerPicture, type CallerPicture } from "@server/customers/index.server";
import { issuePaymentCode } from "@server/order-flows/index.server";
import { findStaffOrder } from "@server/orders/index.server";
import { activePaymentProvider, type ActiveProvider } from "@server/payments/index.server";
import type { Database } from "@server/db/index.server";
import { loadOrderDesk, NEW_CALLER, placeStaffOrder, previewStaffOrder, sendPaymentLink } from "@server/staff-orders/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { CallerSearch, NEW_ORDER_PATH } from "~/components/admin/new-order/caller-search";
import { CreatedOrderPanel, type CreatedOrder } from "~/components/admin/new-order/created-order";
import { NewOrderForm } from "~/components/admin/new-order/order-form";
import type { NewOrderActionData } from "~/components/admin/new-order/types";
import { dbContext } from "~/server/db-context.server";
import { mapTiles } from "~/server/map-tiles.server";
import { readFormData } from "~/server/request-body.server";
import { siteInfo } from "~/server/site-info.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";
import { isUuid, withoutControlCharacters } from "@core/input-schemas";
import { normalizePeruvianMobile } from "@core/documents";
import {
  NEW_ADDRESS,
  readStaffOrderValues,
  STAFF_PAYMENT_CHOICES,
  usualQuantities,
  type StaffOrderValues,
  type StaffPaymentChoice,
} from "@core/staff-order-form";

// Issue 38: whoever may work Pedidos types in an order (admin and operaciones).
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/pedidos")];

export const meta: Route.MetaFunction = () => [{ title: "Nuevo pedido · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const SEARCH_MAX = 120;

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const url = new URL(request.url);
  // What the URL says, without control characters (PostgreSQL refuses a NUL in text).
  const param = (name: string, max: number) =>
    withoutControlCharacters(url.searchParams.get(name) ?? "", "line")
      .trim()
      .slice(0, max);
  // The WhatsApp thread's "Crear pedido" link: `?telefono=9XXXXXXXX` searches that number.
  const telefono = param("telefono", 40);
  const query = param("q", SEARCH_MAX) || telefono;
  const picked = param("cliente", 200) || null;
  const now = new Date();
  const desk = await loadOrderDesk(db, { query, reference: picked, now });
  // A number nobody answers to starts a new customer with it.
  const startNew = !desk.open && telefono !== "" && desk.matches.length === 0;
  const open = desk.open || startNew;
  const served = new Set(desk.districts.map((district) => district.id));
  return {
    query,
    picked: desk.caller?.reference ?? (open ? NEW_CALLER : null),
    matches: desk.matches,
    caller: desk.caller,
    open,
    initial: open ? prefill(desk.caller, query, served) : null,
    sellable: desk.sellable,
    districts: desk.districts,
    slots: desk.slots,
    // One order per form (issue 38: a double click creates one order).
    checkoutKey: randomUUID(),
    created: await createdOrder(db, url),
    // Where and for whom contra entrega is offered (the server checks it again when placing).
    doorPayment: open ? await doorPaymentOffer(db, desk.caller?.userId ?? null) : null,
    // The WhatsApp box only where the shop sends WhatsApp at all.
    whatsappOn: whatsappEnabled(),
    tiles: mapTiles(),
  };
}

/** The form as it opens: the caller's data, or what the search said of a new customer. */
function prefill(caller: CallerPicture | null, query: string, served: Set<number>): StaffOrderValues {
  const phone = /^[\d\s+().-]{9,}$/.test(query) ? normalizePeruvianMobile(query) : "";
  const email = query.includes("@") ? query : "";
  const words = !phone && !email ? query.split(/\s+/).filter(Boolean) : [];
  const contact = caller?.contact;
  return {
    checkoutKey: "",
    cliente: caller?.reference ?? "",
    nombre: contact?.nombre ?? words[0] ?? "",
    apellido: contact?.apellido ?? words.slice(1).join(" "),
    correo: contact?.correo ?? email,
    telefono: contact?.telefono ?? phone,
    tipo_documento: contact?.tipoDocumento ?? "dni",
    dni: contact?.documento ?? "",
    ruc: contact?.ruc ?? "",
    razonSocial: contact?.razonSocial ?? "",
    // Their latest address the shop still delivers to.
    direccionElegida: caller?.addresses.find((address) => served.has(address.districtId))?.key ?? NEW_ADDRESS,
    districtId: "",
    direccion: "",
    referencia: "",
    coordenadas: "",
    horario: "",
    motivoSobrecupo: "",
    pago: "contra_entrega",
    metodoContraEntrega: "efectivo",
    pagaCon: "",
    promociones: false,
    whatsapp: false,
    cantidades: {},
  };
}

/** The order just created (`?creado=`), as the office reads it out before hanging up. */
async function createdOrder(db: Parameters<typeof findStaffOrder>[0], url: URL): Promise<CreatedOrder | null> {
  const orderId = url.searchParams.get("creado");
  if (!isUuid(orderId)) return null;
  const order = await findStaffOrder(db, orderId);
  if (!order) return null;
  const payment = url.searchParams.get("pago");
  const attempt = order.payments.find((candidate) => candidate.paymentCode) ?? null;
  const sent = url.searchParams.get("enviado");
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    customerName: `${order.customer.firstName} ${order.customer.lastName}`,
    phone: order.customer.phone,
    email: order.customer.email,
    toPayCents: order.totalCents - order.garantiaCreditCents,
    deliveryDate: order.shipping.deliveryDate,
    deliveryWindow: order.shipping.deliveryWindow,
    payment: (STAFF_PAYMENT_CHOICES as readonly string[]).includes(payment ?? "") ? (payment as StaffPaymentChoice) : null,
    code: attempt?.paymentCode ? { code: attempt.paymentCode, expiresAt: attempt.expiresAt } : null,
    linkSent: sent === "correo" || sent === "correo_whatsapp" || sent === "no" ? sent : null,
    codeRefused: url.searchParams.get("codigo") === "limite",
  };
}

/** The live total's answer skips reloading the page's data: nothing changed. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "precio" || formData?.get("intent") === "revisar" ? false : defaultShouldRevalidate;

const answer = (result: NewOrderActionData, status = 200) => data(result, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const now = new Date();
  if (intent === "precio") return answer({ intent, preview: await previewStaffOrder(db, readStaffOrderValues(form.entries())) });
  if (intent === "codigo" || intent === "enviar_link") return afterCreated(request, context, intent, String(form.get("pedido") ?? ""), now);
  if (intent !== "revisar" && intent !== "lo_de_siempre" && intent !== "crear") return answer({ intent: "otro", message: "Acción no válida." }, 400);

  let values = readStaffOrderValues(form.entries());
  if (intent === "lo_de_siempre") {
    const caller = values.cliente ? await loadCallerPicture(db, values.cliente) : null;
    const sellable = await listSellableLines(db);
    if (caller?.lastOrder) values = { ...values, cantidades: usualQuantities(caller.lastOrder.lines, sellable).quantities };
  }
  if (intent !== "crear") return answer({ intent, values, fieldErrors: {}, message: null, preview: await previewStaffOrder(db, values) });

  const provider = activePaymentProvider();
  const siteUrl = (await siteInfo(db)).siteUrl;
  const result = await placeStaffOrder(db, values, {
    actor: staffActor(context, request),
    now,
    provider: provider.id,
    userAgent: request.headers.get("user-agent"),
    siteUrl,
  });
  if (!result.ok) {
    return answer(
      { intent, values, fieldErrors: result.fieldErrors, message: result.message, preview: await previewStaffOrder(db, values), slotTaken: result.slotTaken },
      400,
    );
  }
  const next = new URLSearchParams({ creado: result.orderId, pago: result.payment });
  if (result.payment === "link") next.set("enviado", await sendLink(db, provider, { paymentId: result.paymentId, siteUrl, now }));
  if (result.payment === "codigo") {
    const code = await issuePaymentCode(db, { paymentId: result.paymentId, now, siteUrl });
    if (!code.ok) next.set("codigo", code.reason === "unpaid_limit" ? "limite" : "no");
  }
  return redirect(`${NEW_ORDER_PATH}?${next}`);
}

/** The provider readies the attempt as the checkout's next step does, and says where it is paid; the customer gets that page. */
async function sendLink(db: Database, provider: ActiveProvider, input: { paymentId: string; siteUrl: string; now: Date }): Promise<string> {
  const step = await provider.nextStep(db, { paymentId: input.paymentId, now: input.now });
  const sent = await sendPaymentLink(db, { ...input, payPath: step.to });
  return sent ? (sent.whatsapp ? "correo_whatsapp" : "correo") : "no";
}

/**
 * The created order's panel, when "Código de pago" gave no code: "Pedir el código otra vez", or
 * "Enviar link de pago" instead (cards and Yape, paid at once).
 */
async function afterCreated(request: Request, context: Route.ActionArgs["context"], intent: "codigo" | "enviar_link", orderId: string, now: Date) {
  const db = context.get(dbContext);
  const order = isUuid(orderId) ? await findStaffOrder(db, orderId) : null;
  if (!order) return answer({ intent: "otro", message: "Pedido no encontrado." }, 404);
  const open = order.payments.find((payment) => payment.status === "created" || payment.status === "pending");
  if (!open) return answer({ intent: "otro", message: "Ese pedido ya no tiene un pago pendiente." }, 409);
  const siteUrl = (await siteInfo(db, request)).siteUrl;
  const next = new URLSearchParams({ creado: order.id });
  if (intent === "enviar_link") {
    next.set("pago", "link");
    next.set("enviado", await sendLink(db, activePaymentProvider(), { paymentId: open.id, siteUrl, now }));
  } else {
    next.set("pago", "codigo");
    const code = await issuePaymentCode(db, { paymentId: open.id, now, siteUrl });
    if (!code.ok) next.set("codigo", code.reason === "unpaid_limit" ? "limite" : "no");
  }
  return redirect(`${NEW_ORDER_PATH}?${next}`);
}

/**
 * "Nuevo pedido" (issue 38, docs/back-office.md): find the caller, pick their address, "Lo de
 * siempre", the soonest slot, the payment, "Crear pedido". One screen, keyboard first, at phone
 * width, and without JavaScript.
 */
export default function AdminNewOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { query, picked, matches, caller, open, initial, sellable, districts, slots, checkoutKey, created, doorPayment, whatsappOn, tiles } = loaderData;
  const answered = actionData && "values" in actionData ? actionData : null;
  return (
    <>
      <AdminPageHeader title="Nuevo pedido">
        <Link to="/admin/pedidos" className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Volver a Pedidos
        </Link>
      </AdminPageHeader>
      {created && <CreatedOrderPanel order={created} />}
      {actionData && actionData.intent === "otro" && (
        <p role="alert" className="mb-4 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          {actionData.message}
        </p>
      )}
      <CallerSearch query={query} matches={matches} picked={picked} focus={!open} focusKey={created?.orderId ?? ""} />
      {open && initial && (
        <NewOrderForm
          // A new caller is a new form; a refused submit keeps the one being typed.
          key={picked ?? "nuevo"}
          caller={caller}
          initial={answered?.values ?? initial}
          checkoutKey={answered?.values.checkoutKey || checkoutKey}
          sellable={sellable}
          districts={districts}
          slots={slots}
          answer={answered}
          doorPayment={doorPayment}
          whatsappOn={whatsappOn}
          tiles={tiles}
        />
      )}
    </>
  );
}
