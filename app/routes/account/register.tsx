import { useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/register";
import { getSignedInUser, register } from "@server/accounts/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AuthShell, FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { PasswordInput } from "~/components/account/password-input";
import { PasswordHints } from "~/components/account/password-hints";
import { Field, inputClass } from "~/components/ui/form-field";
import { redirectWithAuthCookies } from "~/server/auth-response.server";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { fieldErrors, registerSchema } from "@core/account-schemas";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { clientAddress, clientKey, safeRedirectPath } from "~/server/session.server";
import { PromotionalConsentCheckbox } from "~/components/consent/promotional-consent-checkbox";
import { WhatsappOptInCheckbox } from "~/components/consent/whatsapp-opt-in-checkbox";
import { whatsappEnabled } from "@server/whatsapp/index.server";
import type { loader as rootLoader } from "~/root";
import { listServedDistricts } from "@server/content/index.server";
import { LocationPicker } from "~/components/map/location-picker";
import { limaPointSchema, type GeoPoint } from "@core/geo";
import { mapTiles } from "~/server/map-tiles.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  if (await getSignedInUser(db, request)) throw redirect(safeRedirectPath(new URL(request.url).searchParams.get("redirectTo")));
  // Issue 26: an optional delivery address with its pin, so the first checkout starts from it.
  return { districts: await listServedDistricts(db), tiles: mapTiles() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const typed = {
    firstName: String(form.firstName ?? ""),
    lastName: String(form.lastName ?? ""),
    email: String(form.email ?? ""),
    promociones: form.promociones === "on",
    phone: String(form.phone ?? ""),
    whatsapp: form.whatsapp === "on",
    districtId: String(form.districtId ?? "").slice(0, 12),
    address: String(form.address ?? "").slice(0, 200),
    lat: String(form.lat ?? "").slice(0, 40),
    lng: String(form.lng ?? "").slice(0, 40),
  };
  const parsed = registerSchema.safeParse(form);
  if (!parsed.success) return data({ typed, fieldErrors: fieldErrors(parsed.error), message: null }, { status: 400 });
  const evidence = { clientAddress: clientAddress(request), userAgent: request.headers.get("user-agent") };
  const promotionsConsent = parsed.data.promociones ? evidence : null;
  // Issue 25: the box exists only with WhatsApp on; a crafted post without it records nothing.
  const whatsappConsent = parsed.data.whatsapp && whatsappEnabled() ? evidence : null;
  const result = await register(context.get(dbContext), { ...parsed.data, client: clientKey(request), promotionsConsent, whatsappConsent });
  if (!result.ok) {
    const fieldErrors: Record<string, string> = result.field ? { [result.field]: result.message } : {};
    return data({ typed, fieldErrors, message: result.field ? null : result.message }, { status: 400 });
  }
  runJobSoon("emails");
  const back = new URL(request.url).searchParams.get("redirectTo");
  return redirectWithAuthCookies(back ? safeRedirectPath(back) : "/dashboard?bienvenida=1", result.headers);
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Crear cuenta",
    description: "Crea tu cuenta para seguir tus pedidos, facturas y envíos.",
    path: "/register",
    robots: "noindex,follow",
  });

export default function Register({ actionData, loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const whatsappNotices = useRouteLoaderData<typeof rootLoader>("root")?.site.whatsappNotices ?? false;
  const errors: Record<string, string | undefined> = actionData?.fieldErrors ?? {};
  const [districtId, setDistrictId] = useState(actionData?.typed.districtId ?? "");
  const [address, setAddress] = useState(actionData?.typed.address ?? "");
  const [point, setPoint] = useState<GeoPoint | null>(() => {
    const parsed = limaPointSchema.safeParse({ lat: actionData?.typed.lat, lng: actionData?.typed.lng });
    return parsed.success ? parsed.data : null;
  });
  const district = loaderData.districts.find((candidate) => String(candidate.id) === districtId);
  return (
    <AuthShell title="Crear cuenta" subtitle="Sigue tus pedidos y administra tu suscripción.">
      <Form method="post" className="space-y-4" noValidate>
        {actionData?.message && <FormAlert>{actionData.message}</FormAlert>}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Nombre" error={errors.firstName}>
            {(props) => (
              <input {...props} name="firstName" autoComplete="given-name" required defaultValue={actionData?.typed.firstName} className={inputClass} />
            )}
          </Field>
          <Field label="Apellido" error={errors.lastName}>
            {(props) => (
              <input {...props} name="lastName" autoComplete="family-name" required defaultValue={actionData?.typed.lastName} className={inputClass} />
            )}
          </Field>
        </div>
        <Field label="Correo electrónico" error={errors.email}>
          {(props) => (
            <input {...props} name="email" type="email" autoComplete="email" required defaultValue={actionData?.typed.email} className={inputClass} />
          )}
        </Field>
        <PasswordInput label="Contraseña" name="password" autoComplete="new-password" error={errors.password} />
        <PasswordInput label="Confirmar contraseña" name="confirmPassword" autoComplete="new-password" error={errors.confirmPassword} />
        <PasswordHints />
        <fieldset className="grid gap-4 rounded-2xl border border-slate-200 p-4 sm:grid-cols-2">
          <legend className="px-1 font-semibold">Dirección de entrega (opcional)</legend>
          <Field label="Distrito" error={errors.districtId}>
            {(props) => (
              <select {...props} name="districtId" value={districtId} onChange={(event) => setDistrictId(event.target.value)} className={inputClass}>
                <option value="">Selecciona tu distrito</option>
                {loaderData.districts.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Dirección" error={errors.address}>
            {(props) => (
              <input
                {...props}
                name="address"
                autoComplete="street-address"
                value={address}
                onChange={(event) => setAddress(event.target.value)}
                className={inputClass}
              />
            )}
          </Field>
          <LocationPicker
            value={point}
            onChange={setPoint}
            tiles={loaderData.tiles}
            openAt={district?.center}
            addressText={[address, district?.name].filter(Boolean).join(", ")}
            names={{ lat: "lat", lng: "lng" }}
            error={errors.ubicacion}
          />
        </fieldset>
        <PromotionalConsentCheckbox name="promociones" defaultChecked={actionData?.typed.promociones} />
        {whatsappNotices && (
          <Field label="Celular (opcional)" error={errors.phone}>
            {(props) => (
              <input
                {...props}
                name="phone"
                type="tel"
                inputMode="tel"
                autoComplete="tel-national"
                placeholder="987 654 321"
                defaultValue={actionData?.typed.phone}
                className={inputClass}
              />
            )}
          </Field>
        )}
        <WhatsappOptInCheckbox name="whatsapp" defaultChecked={actionData?.typed.whatsapp} />
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {busy ? "Creando cuenta..." : "Crear cuenta"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-600">
        ¿Ya tienes cuenta?{" "}
        <Link to={`/login${useLocation().search}`} className="font-semibold text-brand-800 underline">
          Inicia sesión
        </Link>
      </p>
    </AuthShell>
  );
}
