import { data, redirect, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/checkout";
import { getProfile, getSignedInUser, type Profile } from "@server/accounts/index.server";
import { checkoutGarantiaContext, doorPaymentOffer, placeOrder } from "@server/checkout/index.server";
import { listOrganizations, listServedDistricts } from "@server/content/index.server";
import { liveSubscriptionsOf } from "@server/subscriptions/index.server";
import { missedDeliveryDates, offeredDeliverySlots } from "@server/deliveries/index.server";
import { activePaymentProvider } from "@server/payments/index.server";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readJson } from "~/server/request-body.server";
import { CheckoutForm, type CheckoutActionData, type CheckoutPrefill } from "~/components/checkout/checkout-form";
import { checkoutSchema, fieldErrors } from "@core/checkout-schema";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { ComplaintsBookNote } from "~/components/complaints/complaints-book-note";
import { orderCookieHeader } from "~/server/order-cookie.server";
import { ORDER_NOT_GENERATED } from "@core/checkout-messages";
import { clientAddress } from "~/server/session.server";
import { mapTiles } from "~/server/map-tiles.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [districts, user, organizations] = await Promise.all([listServedDistricts(db), getSignedInUser(db, request), listOrganizations(db)]);
  const now = new Date();
  const [profile, offered, missed, garantia, door, liveSubscriptions] = await Promise.all([
    user ? getProfile(db, user.id) : null,
    offeredDeliverySlots(db, { now, districts }),
    // Issue 41: the weekday dates not offered in the next three weeks, each with its reason.
    missedDeliveryDates(db, { now, districts, days: 21 }),
    // Decision 0075: a signed-in customer's own bidones and garantía credit, for the summary's lines.
    user ? checkoutGarantiaContext(db, user.id) : null,
    doorPaymentOffer(db, user?.id ?? null),
    // Issue 41: a customer who subscribes again is asked "¿Quieres otra?" first.
    user ? liveSubscriptionsOf(db, user.id) : [],
  ]);
  // Issue 10: the server says which dates and windows have room (cut-off, closed days, capacity).
  return {
    districts,
    offered,
    missed,
    customer: profile ? checkoutPrefill(profile) : null,
    organizations: organizations.map(({ id, title }) => ({ id, title })),
    garantia,
    // Issue 38: where and up to what pago contra entrega is offered; the server checks it again.
    doorPayment: door,
    tiles: mapTiles(),
    liveSubscriptions,
  };
}

/** Issue 4: a signed-in customer's stored data fills the form once; every field stays editable. */
function checkoutPrefill(profile: Profile): CheckoutPrefill {
  return {
    nombre: profile.firstName,
    apellido: profile.lastName,
    correo: profile.email,
    telefono: profile.phone ?? "",
    tipo_documento: (profile.documentType as CheckoutPrefill["tipo_documento"] | null) ?? "dni",
    dni: profile.documentNumber ?? "",
    districtName: profile.districtName ?? "",
    direccion: profile.address ?? "",
    ubicacion: profile.point,
  };
}

// Issue 9: a signed-in customer's checkout carries their DNI, phone and address; no cache keeps it.
export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Finalizar compra",
    description: "Completa tus datos y programa la entrega de tu agua alcalina en Lima.",
    robots: "noindex,follow",
    path: "/checkout",
  });

const ACCOUNT_REQUIRED = "Para suscribirte necesitas una cuenta: así podrás pausar, cambiar o cancelar tu suscripción cuando quieras.";

/** A slot taken meanwhile: the page reloads what is still offered (React Router skips that after a 4xx by default). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as CheckoutActionData | undefined)?.slotTaken === true || defaultShouldRevalidate;

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = checkoutSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    return data<CheckoutActionData>({ ok: false, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const provider = activePaymentProvider();
  try {
    const user = await getSignedInUser(context.get(dbContext), request);
    const client = { address: clientAddress(request), userAgent: request.headers.get("user-agent") };
    const result = await placeOrder(context.get(dbContext), parsed.data, { now: new Date(), provider: provider.id, userId: user?.id ?? null, client });
    if (result.ok && result.nextStep === "pay_at_door") {
      // Issue 38: confirmed without an online payment; the receipt says what is paid at the door.
      return redirect(`/success?orderId=${result.orderId}`, { headers: { "Set-Cookie": orderCookieHeader(result.orderId) } });
    }
    if (result.ok && result.nextStep === "tokenize_card") {
      // Spec §4 tokenize_card: the card form of the active provider (cards only) opens next.
      return redirect(`/suscripcion/tarjeta/${result.subscriptionId}`, { headers: { "Set-Cookie": orderCookieHeader(result.orderId) } });
    }
    if (result.ok) {
      // nextStep process_payment: the provider readies the attempt and says where it is paid (a
      // redirect from a fetcher action navigates the app, and works the same for a repeated submit).
      const next = await provider.nextStep(context.get(dbContext), { paymentId: result.paymentId, now: new Date() });
      return redirect(next.to, { headers: { "Set-Cookie": orderCookieHeader(result.orderId) } });
    }
    switch (result.reason) {
      case "invalid":
        return data<CheckoutActionData>({ ok: false, message: ORDER_NOT_GENERATED, fieldErrors: result.fieldErrors }, { status: 400 });
      case "cart_changed":
        return data<CheckoutActionData>(
          { ok: false, message: "Los productos o precios de tu carrito cambiaron. Revisa tu carrito antes de continuar.", cartChanged: true },
          { status: 409 },
        );
      case "minimum":
        return data<CheckoutActionData>({ ok: false, minimumShortfallCents: result.shortfallCents }, { status: 400 });
      case "slot_taken":
        return data<CheckoutActionData>({ ok: false, fieldErrors: result.fieldErrors, slotTaken: true }, { status: 400 });
      case "unpaid_limit":
        return data<CheckoutActionData>({ ok: false, message: result.message, fieldErrors: { formaPago: result.message } }, { status: 409 });
      case "door_payment_unavailable":
        return data<CheckoutActionData>({ ok: false, message: result.message, fieldErrors: result.fieldErrors }, { status: 400 });
      case "account_required":
        return data<CheckoutActionData>({ ok: false, message: ACCOUNT_REQUIRED, accountRequired: true }, { status: 401 });
    }
  } catch (error) {
    console.error("Checkout failed", error);
    return data<CheckoutActionData>(
      { ok: false, message: "No pudimos iniciar tu pago. Intenta nuevamente.", inlineError: "Ocurrió un error al generar tu orden. Intenta nuevamente." },
      { status: 500 },
    );
  }
}

export default function Checkout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <CheckoutForm
        districts={loaderData.districts}
        offered={loaderData.offered}
        missed={loaderData.missed}
        customer={loaderData.customer}
        organizations={loaderData.organizations}
        garantiaContext={loaderData.garantia}
        doorPayment={loaderData.doorPayment}
        tiles={loaderData.tiles}
        liveSubscriptions={loaderData.liveSubscriptions}
      />
      <ComplaintsBookNote />
    </>
  );
}
