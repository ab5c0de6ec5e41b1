import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/libro-de-reclamaciones";
import { rateLimitMessage } from "@server/accounts/index.server";
import { complaintSheetPath, fileComplaint } from "@server/complaints/index.server";
import { publicSiteUrl } from "@server/config/index.server";
import { getIssuer } from "@server/content/index.server";
import { FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { describedBy, FieldError, inputClass } from "~/components/ui/form-field";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { readFormData } from "~/server/request-body.server";
import { clientKey } from "~/server/session.server";
import {
  COMPLAINT_DOCUMENT_TYPES,
  COMPLAINT_FORM_FIELDS,
  COMPLAINT_KIND_DEFINITIONS,
  COMPLAINT_KIND_LABELS,
  COMPLAINT_KINDS,
  COMPLAINT_LEGENDS,
  GOOD_TYPE_LABELS,
  GOOD_TYPES,
  parseComplaintForm,
  type ComplaintFormValues,
} from "@core/complaints-book";
import { documentTypeLabels } from "@core/documents";
import { formatLimaInstant } from "@core/lima-dates";

interface ComplaintActionData {
  values: ComplaintFormValues;
  fieldErrors: Record<string, string>;
  error: string;
}

export async function loader({ context }: Route.LoaderArgs) {
  const issuer = await getIssuer(context.get(dbContext));
  return {
    provider: { legalName: issuer.legalName, ruc: issuer.ruc, address: issuer.fiscalAddress },
    today: formatLimaInstant(new Date(), { day: "2-digit", month: "2-digit", year: "numeric" }),
  };
}

// What the consumer typed comes back in the answer to a refused post: no cache keeps it.
export const headers = () => privatePageHeaders;

/** Ley 29571 art. 150: never behind a login; a plain form post, so it works without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const values: ComplaintFormValues = Object.fromEntries(
    COMPLAINT_FORM_FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === "string" ? value : ""];
    }),
  );
  const parsed = parseComplaintForm(values);
  if (!parsed.ok) return data<ComplaintActionData>({ values, fieldErrors: parsed.fieldErrors, error: "Revisa los campos marcados." }, { status: 400 });
  const filed = await fileComplaint(context.get(dbContext), parsed.data, { now: new Date(), client: clientKey(request), siteUrl: publicSiteUrl() });
  if (!filed.ok) return data<ComplaintActionData>({ values, fieldErrors: {}, error: rateLimitMessage(filed.retryAfterSeconds) }, { status: 429 });
  return redirect(complaintSheetPath(filed.token), { status: 303 });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Libro de Reclamaciones",
    description: "Registra un reclamo o una queja en nuestro Libro de Reclamaciones virtual. Te responderemos en un plazo máximo de 15 días hábiles.",
    path: "/libro-de-reclamaciones",
  });

export default function LibroDeReclamaciones({ loaderData, actionData }: Route.ComponentProps) {
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const sending = useNavigation().state === "submitting";
  const { provider } = loaderData;
  return (
    <main id="contenido" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900 sm:text-4xl">Libro de Reclamaciones</h1>
      <p className="mt-3 text-slate-700">
        Conforme a lo establecido en el Código de Protección y Defensa del Consumidor (Ley N° 29571), contamos con un Libro de Reclamaciones virtual. Completa
        la hoja y te enviaremos una copia a tu correo.
      </p>

      <section aria-labelledby="proveedor" className="mt-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="proveedor" className="font-semibold text-brand-900">
          Proveedor
        </h2>
        <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
          <Fact label="Razón social" value={provider.legalName} />
          <Fact label="RUC" value={provider.ruc} />
          <Fact label="Domicilio" value={provider.address} />
          <Fact label="Fecha" value={loaderData.today} />
        </dl>
        <p className="mt-2 text-sm text-slate-600">El número de la hoja y la hora se asignan al registrarla.</p>
      </section>

      <Form method="post" noValidate className="mt-8 space-y-8">
        {actionData?.error && <FormAlert>{actionData.error}</FormAlert>}

        <fieldset className="space-y-4">
          <legend className="text-xl font-bold text-brand-900">1. Identificación del consumidor reclamante</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField name="consumerNames" label="Nombres" values={values} errors={errors} autoComplete="given-name" required />
            <TextField name="consumerSurnames" label="Apellidos" values={values} errors={errors} autoComplete="family-name" required />
            <SelectField name="documentType" label="Tipo de documento" values={values} errors={errors} required />
            <TextField name="documentNumber" label="Número de documento" values={values} errors={errors} required />
          </div>
          <TextField name="address" label="Domicilio" values={values} errors={errors} autoComplete="street-address" required />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField name="phone" label="Teléfono (opcional)" values={values} errors={errors} type="tel" autoComplete="tel" />
            <TextField name="email" label="Correo electrónico" values={values} errors={errors} type="email" autoComplete="email" required />
          </div>
          <div className="rounded-xl bg-slate-50 p-4">
            <label className="flex items-start gap-2 font-semibold text-slate-800">
              <input type="checkbox" name="isMinor" defaultChecked={values.isMinor === "on"} className="mt-1 h-5 w-5" />
              <span>Soy menor de edad</span>
            </label>
            <p className="mt-1 text-sm text-slate-600">Si eres menor de edad, completa los datos de tu padre, madre o apoderado.</p>
            <div className="mt-3 grid gap-4 sm:grid-cols-2">
              <div className="sm:col-span-2">
                <TextField name="guardianName" label="Nombre del padre, madre o apoderado" values={values} errors={errors} />
              </div>
              <SelectField name="guardianDocumentType" label="Tipo de documento del apoderado" values={values} errors={errors} optional />
              <TextField name="guardianDocumentNumber" label="Número de documento del apoderado" values={values} errors={errors} />
            </div>
          </div>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-xl font-bold text-brand-900">2. Identificación del bien contratado</legend>
          <RadioGroup
            name="goodType"
            label="El reclamo es sobre un"
            options={GOOD_TYPES.map((value) => ({ value, label: GOOD_TYPE_LABELS[value] }))}
            values={values}
            errors={errors}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField name="claimedAmount" label="Monto reclamado en soles (opcional)" values={values} errors={errors} inputMode="decimal" />
            <TextField name="orderNumber" label="N° de pedido (opcional)" values={values} errors={errors} placeholder="VA-001234" />
          </div>
          <TextArea name="goodDescription" label="Descripción del producto o servicio" values={values} errors={errors} rows={2} />
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-xl font-bold text-brand-900">3. Detalle de la reclamación y pedido del consumidor</legend>
          <RadioGroup
            name="kind"
            label="Tipo"
            options={COMPLAINT_KINDS.map((value) => ({ value, label: COMPLAINT_KIND_LABELS[value], hint: COMPLAINT_KIND_DEFINITIONS[value] }))}
            values={values}
            errors={errors}
          />
          <TextArea name="detail" label="Detalle" values={values} errors={errors} rows={5} />
          <TextArea name="consumerRequest" label="Pedido (qué solicitas)" values={values} errors={errors} rows={3} />
        </fieldset>

        <div className="space-y-2 rounded-xl border border-slate-200 p-4 text-sm text-slate-700">
          {COMPLAINT_LEGENDS.map((legend) => (
            <p key={legend}>* {legend}</p>
          ))}
        </div>

        <button type="submit" className={`${primaryButtonClass} sm:w-auto`} disabled={sending}>
          {sending ? "Enviando..." : "Enviar hoja de reclamación"}
        </button>
      </Form>
    </main>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="font-semibold text-slate-700">{label}</dt>
      <dd className="break-words text-slate-900">{value}</dd>
    </div>
  );
}

type FieldName = (typeof COMPLAINT_FORM_FIELDS)[number];

interface FieldProps {
  name: FieldName;
  label: string;
  values: ComplaintFormValues;
  errors: Record<string, string>;
}

function ErrorText({ name, errors }: { name: FieldName; errors: Record<string, string> }) {
  return <FieldError id={`${name}-error`} message={errors[name]} />;
}

const invalidProps = (name: FieldName, errors: Record<string, string>) => describedBy(`${name}-error`, errors[name]);

function TextField({ name, label, values, errors, required, ...rest }: FieldProps & { required?: boolean } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <input
        id={name}
        name={name}
        defaultValue={values[name] ?? ""}
        aria-required={required ? true : undefined}
        className={inputClass}
        {...invalidProps(name, errors)}
        {...rest}
      />
      <ErrorText name={name} errors={errors} />
    </div>
  );
}

function TextArea({ name, label, values, errors, rows }: FieldProps & { rows: number }) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <textarea id={name} name={name} rows={rows} defaultValue={values[name] ?? ""} aria-required className={inputClass} {...invalidProps(name, errors)} />
      <ErrorText name={name} errors={errors} />
    </div>
  );
}

function SelectField({ name, label, values, errors, required, optional }: FieldProps & { required?: boolean; optional?: boolean }) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-semibold">
        {label}
      </label>
      <select
        id={name}
        name={name}
        defaultValue={values[name] ?? (optional ? "" : "dni")}
        aria-required={required ? true : undefined}
        className={`${inputClass} bg-white`}
        {...invalidProps(name, errors)}
      >
        {optional && <option value="">Selecciona</option>}
        {COMPLAINT_DOCUMENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {documentTypeLabels[type]}
          </option>
        ))}
      </select>
      <ErrorText name={name} errors={errors} />
    </div>
  );
}

function RadioGroup({ name, label, options, values, errors }: FieldProps & { options: { value: string; label: string; hint?: string }[] }) {
  return (
    <fieldset aria-describedby={errors[name] ? `${name}-error` : undefined}>
      <legend className="mb-2 text-sm font-semibold">{label}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex items-start gap-2 rounded-xl border border-slate-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              defaultChecked={values[name] === option.value}
              aria-invalid={errors[name] ? true : undefined}
              className="mt-1 h-5 w-5"
            />
            <span>
              <span className="font-semibold">{option.label}</span>
              {option.hint && <span className="block text-sm text-slate-600">{option.hint}</span>}
            </span>
          </label>
        ))}
      </div>
      <ErrorText name={name} errors={errors} />
    </fieldset>
  );
}
