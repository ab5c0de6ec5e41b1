import { Form } from "react-router";
import { useResetAfterSave } from "~/lib/use-reset-after-save";
import type { Route } from "./+types/settings";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ContentField, SavedNotice, contentCardClass } from "~/components/admin/content-form";
import { StaffFormError, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { answerContentSave, contentNotFound, readContentForm, refuseContent } from "~/routes/admin/catalog/content-admin.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";
import { readSettingsForEditing, updateDoorPaymentSettings, updateIssuer, updateRepeatSettings, updateSiteSettings } from "@server/content/index.server";
import { centsToSolesText } from "@core/catalog-schemas";
import { garantiaComprobanteModeLabels, type GarantiaComprobanteMode } from "@core/garantia";

/** Issue 11: the admin edits the site settings and the issuer's data (the one source of comprobantes and legal pages). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("contenido.gestionar")];

const NO_SETTINGS = "No hay ajustes de la tienda. Ejecuta la carga inicial de datos.";
const SITE_FIELDS = ["brandName", "whatsappNumber", "whatsappGreeting", "contactEmail", "instagramUrl", "facebookUrl", "tiktokUrl", "closingCtaLabel"] as const;
const ISSUER_FIELDS = ["legalName", "ruc", "fiscalAddress", "phone"] as const;
const REPEAT_FIELDS = ["reorderRemindersEnabled", "garantiaComprobanteMode"] as const;
const DOOR_FIELDS = ["doorPaymentEnabled", "doorPaymentMax", "doorPaymentCustomers", "doorYapeNumber", "deliveryPhotoRequiredAbove"] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  const settings = await readSettingsForEditing(context.get(dbContext));
  if (!settings) contentNotFound(NO_SETTINGS);
  return { settings, saved: new URL(request.url).searchParams.get("guardado") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const { intent, values } = await readContentForm(request, [...SITE_FIELDS, ...ISSUER_FIELDS, ...REPEAT_FIELDS, ...DOOR_FIELDS]);
  if (intent === "site") {
    const result = await updateSiteSettings(db, actor, values, new Date());
    return answerContentSave(result, intent, values, "/admin/contenido/ajustes?guardado=sitio", NO_SETTINGS);
  }
  if (intent === "issuer") {
    const result = await updateIssuer(db, actor, values, new Date());
    return answerContentSave(result, intent, values, "/admin/contenido/ajustes?guardado=emisor#emisor", NO_SETTINGS);
  }
  if (intent === "repeat") {
    const raw = { reorderRemindersEnabled: values.reorderRemindersEnabled === "si", garantiaComprobanteMode: values.garantiaComprobanteMode };
    const result = await updateRepeatSettings(db, actor, raw, new Date());
    return answerContentSave(result, intent, values, "/admin/contenido/ajustes?guardado=recompra#recompra", NO_SETTINGS);
  }
  if (intent === "door") {
    const raw = {
      doorPaymentEnabled: values.doorPaymentEnabled === "si",
      doorPaymentMaxCents: values.doorPaymentMax,
      doorPaymentCustomers: values.doorPaymentCustomers,
      doorYapeNumber: values.doorYapeNumber,
      deliveryPhotoRequiredAboveCents: values.deliveryPhotoRequiredAbove,
    };
    const result = await updateDoorPaymentSettings(db, actor, raw, new Date());
    // The field is typed as doorPaymentMax; the schema's error comes under the column's name.
    if (!result.ok && result.reason === "invalid" && result.fieldErrors.doorPaymentMaxCents)
      result.fieldErrors.doorPaymentMax = result.fieldErrors.doorPaymentMaxCents;
    if (!result.ok && result.reason === "invalid" && result.fieldErrors.deliveryPhotoRequiredAboveCents)
      result.fieldErrors.deliveryPhotoRequiredAbove = result.fieldErrors.deliveryPhotoRequiredAboveCents;
    return answerContentSave(result, intent, values, "/admin/contenido/ajustes?guardado=contra-entrega#contra-entrega", NO_SETTINGS);
  }
  return refuseContent(intent, values, "Acción no válida. Recarga la página e inténtalo de nuevo.");
}

export const meta: Route.MetaFunction = () => [{ title: "Ajustes del sitio · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function ContentSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, saved } = loaderData;
  const site = actionData?.intent === "site" ? actionData : null;
  const issuer = actionData?.intent === "issuer" ? actionData : null;
  const repeat = actionData?.intent === "repeat" ? actionData : null;
  const door = actionData?.intent === "door" ? actionData : null;
  const siteValue = (name: (typeof SITE_FIELDS)[number]) => site?.values[name] ?? settings[name];
  const issuerValue = (name: (typeof ISSUER_FIELDS)[number], stored: string) => issuer?.values[name] ?? stored;
  // After its own save each form shows what was stored (e.g. the number in wa.me form); saving one never clears the other.
  const { formRef: siteFormRef, onSubmit: onSiteFormSubmit } = useResetAfterSave(site !== null);
  const { formRef: issuerFormRef, onSubmit: onIssuerFormSubmit } = useResetAfterSave(issuer !== null);
  return (
    <div className="max-w-2xl">
      <AdminPageHeader title="Ajustes del sitio" />
      <StaffFormError message={actionData && !site && !issuer && !repeat ? actionData.error : null} />
      <SavedNotice show={saved === "sitio" && !actionData}>Ajustes del sitio guardados. La tienda los muestra en unos segundos.</SavedNotice>
      <Form ref={siteFormRef} onSubmit={onSiteFormSubmit} method="post" className={contentCardClass} aria-labelledby="sitio-titulo">
        <h2 id="sitio-titulo" className="text-lg font-bold text-slate-900">
          Sitio
        </h2>
        <StaffFormError message={site?.error} />
        <ContentField name="brandName" label="Marca" required defaultValue={siteValue("brandName")} error={site?.fieldErrors.brandName} />
        <ContentField
          name="whatsappNumber"
          label="Número de WhatsApp"
          inputMode="tel"
          required
          defaultValue={siteValue("whatsappNumber")}
          error={site?.fieldErrors.whatsappNumber}
          help="Con código de país, por ejemplo 51 987 654 321."
        />
        <ContentField
          name="whatsappGreeting"
          label="Saludo del mensaje de WhatsApp"
          required
          rows={2}
          defaultValue={siteValue("whatsappGreeting")}
          error={site?.fieldErrors.whatsappGreeting}
        />
        <ContentField
          name="contactEmail"
          label="Correo de contacto"
          type="email"
          required
          defaultValue={siteValue("contactEmail")}
          error={site?.fieldErrors.contactEmail}
        />
        <ContentField
          name="instagramUrl"
          label="Instagram (opcional)"
          type="url"
          defaultValue={siteValue("instagramUrl")}
          error={site?.fieldErrors.instagramUrl}
        />
        <ContentField name="facebookUrl" label="Facebook (opcional)" type="url" defaultValue={siteValue("facebookUrl")} error={site?.fieldErrors.facebookUrl} />
        <ContentField name="tiktokUrl" label="TikTok (opcional)" type="url" defaultValue={siteValue("tiktokUrl")} error={site?.fieldErrors.tiktokUrl} />
        <ContentField
          name="closingCtaLabel"
          label="Texto del botón final de la portada"
          required
          defaultValue={siteValue("closingCtaLabel")}
          error={site?.fieldErrors.closingCtaLabel}
        />
        <button type="submit" name="intent" value="site" className={staffPrimaryButtonClass}>
          Guardar ajustes del sitio
        </button>
      </Form>

      <div className="mt-8" />
      <SavedNotice show={saved === "emisor" && !actionData}>Datos del emisor guardados.</SavedNotice>
      <Form ref={issuerFormRef} onSubmit={onIssuerFormSubmit} method="post" id="emisor" className={contentCardClass} aria-labelledby="emisor-titulo">
        <h2 id="emisor-titulo" className="text-lg font-bold text-slate-900">
          Datos del emisor
        </h2>
        <p className="text-sm text-slate-600">
          Tal como figuran en la Ficha RUC de SUNAT. Se imprimen en boletas y facturas y se usan en los textos legales.
          {settings.issuerIsDemo && <strong className="block text-amber-800">Ahora son los datos de la tienda de demostración.</strong>}
        </p>
        <StaffFormError message={issuer?.error} />
        <ContentField
          name="legalName"
          label="Razón social"
          required
          defaultValue={issuerValue("legalName", settings.issuerLegalName)}
          error={issuer?.fieldErrors.legalName}
        />
        <ContentField
          name="ruc"
          label="RUC"
          inputMode="numeric"
          required
          defaultValue={issuerValue("ruc", settings.issuerRuc)}
          error={issuer?.fieldErrors.ruc}
          help="11 dígitos."
        />
        <ContentField
          name="fiscalAddress"
          label="Domicilio fiscal"
          required
          defaultValue={issuerValue("fiscalAddress", settings.issuerFiscalAddress)}
          error={issuer?.fieldErrors.fiscalAddress}
        />
        <ContentField
          name="phone"
          label="Teléfono"
          inputMode="tel"
          required
          defaultValue={issuerValue("phone", settings.issuerPhone)}
          error={issuer?.fieldErrors.phone}
        />
        <button type="submit" name="intent" value="issuer" className={staffPrimaryButtonClass}>
          Guardar datos del emisor
        </button>
      </Form>

      <div className="mt-8" />
      <SavedNotice show={saved === "recompra" && !actionData}>Ajustes de recompra y garantía guardados.</SavedNotice>
      <Form key={`repeat-${String(settings.updatedAt)}`} method="post" id="recompra" className={contentCardClass} aria-labelledby="recompra-titulo">
        <h2 id="recompra-titulo" className="text-lg font-bold text-slate-900">
          Recompra y garantía de bidones
        </h2>
        <StaffFormError message={repeat?.error} />
        <label className="flex items-start gap-3 text-slate-800">
          <input
            type="checkbox"
            name="reorderRemindersEnabled"
            value="si"
            defaultChecked={repeat ? repeat.values.reorderRemindersEnabled === "si" : settings.reorderRemindersEnabled}
            className="mt-1 h-5 w-5"
          />
          <span>
            Enviar recordatorios «¿Te queda agua?»
            <span className="block text-sm text-slate-600">
              Un correo por intervalo a quien compra sin suscripción y aceptó promociones, uno o dos días antes de cuando suele quedarse sin agua. Ver los
              próximos en{" "}
              <a href="/admin/recordatorios" className="font-semibold text-brand-700 underline">
                Recordatorios
              </a>
              .
            </span>
          </span>
        </label>
        <fieldset className="space-y-2">
          <legend className="font-semibold text-slate-800">La garantía de bidón en boletas y facturas</legend>
          {(Object.entries(garantiaComprobanteModeLabels) as [GarantiaComprobanteMode, string][]).map(([mode, label]) => (
            <label key={mode} className="flex items-center gap-3 text-slate-800">
              <input
                type="radio"
                name="garantiaComprobanteMode"
                value={mode}
                defaultChecked={(repeat?.values.garantiaComprobanteMode ?? settings.garantiaComprobanteMode) === mode}
                className="h-5 w-5"
              />
              {label}
            </label>
          ))}
          {repeat?.fieldErrors.garantiaComprobanteMode && <p className="text-sm text-red-700">{repeat.fieldErrors.garantiaComprobanteMode}</p>}
          <p className="text-sm text-slate-600">
            Confírmalo con tu contador. Se aplica a los pedidos nuevos; los ya hechos conservan el tratamiento con que se cobraron.
          </p>
        </fieldset>
        <button type="submit" name="intent" value="repeat" className={staffPrimaryButtonClass}>
          Guardar recompra y garantía
        </button>
      </Form>

      <div className="mt-8" />
      <SavedNotice show={saved === "contra-entrega" && !actionData}>Ajustes de pago contra entrega guardados.</SavedNotice>
      <Form key={`door-${String(settings.updatedAt)}`} method="post" id="contra-entrega" className={contentCardClass} aria-labelledby="contra-entrega-titulo">
        <h2 id="contra-entrega-titulo" className="text-lg font-bold text-slate-900">
          Pago contra entrega
        </h2>
        <StaffFormError message={door?.error} />
        <label className="flex items-start gap-3 text-slate-800">
          <input
            type="checkbox"
            name="doorPaymentEnabled"
            value="si"
            defaultChecked={door ? door.values.doorPaymentEnabled === "si" : settings.doorPaymentEnabled}
            className="mt-1 h-5 w-5"
          />
          <span>
            Ofrecer «Pago contra entrega» (efectivo o Yape al repartidor)
            <span className="block text-sm text-slate-600">
              En los distritos marcados en{" "}
              <a href="/admin/distritos" className="font-semibold text-brand-700 underline">
                Distritos
              </a>
              . Cada celular o dirección puede tener como máximo 3 pedidos sin pagar a la vez.
            </span>
          </span>
        </label>
        <ContentField
          name="doorPaymentMax"
          label="Monto máximo del pedido (S/)"
          defaultValue={door?.values.doorPaymentMax ?? centsToSolesText(settings.doorPaymentMaxCents)}
          error={door?.fieldErrors.doorPaymentMax}
          inputMode="decimal"
        />
        <fieldset className="space-y-2">
          <legend className="font-semibold text-slate-800">¿Quién puede usarlo?</legend>
          {(
            [
              ["all", "Todos los clientes, también los nuevos"],
              ["delivered", "Solo clientes con cuenta que ya recibieron un pedido"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-3 text-slate-800">
              <input
                type="radio"
                name="doorPaymentCustomers"
                value={value}
                defaultChecked={(door?.values.doorPaymentCustomers ?? settings.doorPaymentCustomers) === value}
                className="h-5 w-5"
              />
              {label}
            </label>
          ))}
        </fieldset>
        <ContentField
          name="doorYapeNumber"
          label="Celular de Yape/Plin de la tienda (lo ve el repartidor en la puerta; nunca uno personal)"
          defaultValue={door?.values.doorYapeNumber ?? settings.doorYapeNumber ?? ""}
          error={door?.fieldErrors.doorYapeNumber}
          inputMode="tel"
        />
        <ContentField
          name="deliveryPhotoRequiredAbove"
          label="Foto de los bidones en la puerta obligatoria para contra entrega desde (S/; vacío: nunca)"
          defaultValue={
            door?.values.deliveryPhotoRequiredAbove ??
            (settings.deliveryPhotoRequiredAboveCents === null ? "" : centsToSolesText(settings.deliveryPhotoRequiredAboveCents))
          }
          error={door?.fieldErrors.deliveryPhotoRequiredAbove}
          inputMode="decimal"
        />
        <button type="submit" name="intent" value="door" className={staffPrimaryButtonClass}>
          Guardar pago contra entrega
        </button>
      </Form>
    </div>
  );
}
