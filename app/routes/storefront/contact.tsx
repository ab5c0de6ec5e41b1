import { data, Form, Link, useNavigation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/contact";
import { sendContactMessage } from "@server/contact/index.server";
import { FormAlert, primaryButtonClass } from "~/components/account/auth-shell";
import { Field, inputClass } from "~/components/ui/form-field";
import { WhatsAppIcon } from "~/components/ui/icons";
import { dbContext } from "~/server/db-context.server";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { shopPhone, whatsappLink } from "~/lib/whatsapp";
import { readFormData } from "~/server/request-body.server";
import type { loader as rootLoader } from "~/root";
import { clientKey } from "~/server/session.server";
import { fieldErrors } from "@core/account-schemas";
import { CONTACT_MESSAGE_MAX, contactMessageSchema } from "@core/contact-schema";
import { isUuid } from "@core/input-schemas";

type ContactValues = { name: string; email: string; phone: string; subject: string; message: string };

// The form carries a one-time submission id, so the page must never come from a shared cache.
const noStore = { "Cache-Control": "private, no-store" };

export function loader() {
  return data({ submissionId: crypto.randomUUID() }, { headers: noStore });
}

export function headers() {
  return noStore;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await readFormData(request));
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  const values: ContactValues = { name: text("name"), email: text("email"), phone: text("phone"), subject: text("subject"), message: text("message") };
  // A form without a valid id (hand-made request) still gets one: only repeats of one form are merged.
  const submissionId = isUuid(text("submissionId")) ? text("submissionId") : crypto.randomUUID();
  const parsed = contactMessageSchema.safeParse(form);
  if (!parsed.success) {
    return data({ sent: false, values, submissionId, fieldErrors: fieldErrors(parsed.error), message: "Revisa los datos marcados." }, { status: 400 });
  }
  const result = await sendContactMessage(context.get(dbContext), { ...parsed.data, submissionId }, { client: clientKey(request) });
  if (!result.ok) return data({ sent: false, values, submissionId, fieldErrors: {}, message: result.message }, { status: 429 });
  return data({ sent: true, values, submissionId, fieldErrors: {}, message: null });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Contáctanos",
    description: "Escríbenos por el formulario o por WhatsApp: te respondemos sobre pedidos, suscripciones y delivery de agua alcalina en Lima.",
    path: "/contact",
  });

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const sending = useNavigation().state === "submitting";
  const site = root?.site;
  return (
    <main id="contenido" className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Contáctanos</h1>
      <p className="mt-3 max-w-2xl text-slate-700">
        ¿Tienes una consulta sobre tu pedido, tu suscripción o el delivery? Escríbenos y el equipo te responderá por correo o por teléfono.
      </p>
      <div className="mt-10 grid gap-10 md:grid-cols-[1fr_18rem]">
        <section aria-labelledby="contact-form-title" className="min-w-0 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6">
          <h2 id="contact-form-title" className="text-lg font-bold text-slate-900">
            Envíanos un mensaje
          </h2>
          {actionData?.sent ? (
            <div className="mt-4 space-y-4">
              <FormAlert tone="success">
                ¡Gracias, {actionData.values.name.trim()}! Recibimos tu mensaje y te responderemos a <strong>{actionData.values.email.trim()}</strong> lo antes
                posible.
              </FormAlert>
              <Link to="/contact" className="inline-block font-semibold text-brand-800 underline">
                Enviar otro mensaje
              </Link>
            </div>
          ) : (
            <ContactForm
              submissionId={actionData?.submissionId ?? loaderData.submissionId}
              values={actionData?.values}
              errors={actionData?.fieldErrors ?? {}}
              message={actionData?.message ?? null}
              sending={sending}
            />
          )}
        </section>
        <aside aria-labelledby="contact-other-title" className="min-w-0 space-y-4">
          <h2 id="contact-other-title" className="text-lg font-bold text-slate-900">
            Otras formas de contactarnos
          </h2>
          {site && (
            <>
              <a
                href={whatsappLink(site.whatsappNumber, site.whatsappGreeting)}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="contact-whatsapp"
                className="flex items-center gap-3 rounded-2xl bg-[#1a7f45] px-5 py-4 font-semibold text-white shadow-sm hover:bg-[#166b3a]"
              >
                <WhatsAppIcon />
                Escríbenos por WhatsApp
              </a>
              <p className="text-sm break-words text-slate-700">
                Teléfono y WhatsApp:{" "}
                <a href={shopPhone(site.whatsappNumber).href} className="font-semibold whitespace-nowrap text-brand-800 underline" data-testid="contact-phone">
                  {shopPhone(site.whatsappNumber).display}
                </a>
              </p>
              <p className="text-sm break-words text-slate-700">
                Correo:{" "}
                <a href={`mailto:${site.contactEmail}`} className="font-semibold text-brand-800 underline">
                  {site.contactEmail}
                </a>
              </p>
            </>
          )}
          <p className="text-sm text-slate-700">
            ¿Olvidaste tu contraseña?{" "}
            <Link to="/forgot-password" className="font-semibold text-brand-800 underline">
              Recupérala aquí
            </Link>
            .
          </p>
        </aside>
      </div>
    </main>
  );
}

function ContactForm({
  submissionId,
  values,
  errors,
  message,
  sending,
}: {
  submissionId: string;
  values: ContactValues | undefined;
  errors: Record<string, string>;
  message: string | null;
  sending: boolean;
}) {
  return (
    <Form method="post" className="mt-4 space-y-4" noValidate>
      {message && <FormAlert>{message}</FormAlert>}
      <input type="hidden" name="submissionId" value={submissionId} />
      <Field label="Nombre" error={errors.name}>
        {(props) => <input {...props} name="name" autoComplete="name" required maxLength={120} defaultValue={values?.name} className={inputClass} />}
      </Field>
      <Field label="Correo electrónico" error={errors.email}>
        {(props) => (
          <input {...props} name="email" type="email" autoComplete="email" required maxLength={160} defaultValue={values?.email} className={inputClass} />
        )}
      </Field>
      <Field label="Teléfono (opcional)" error={errors.phone}>
        {(props) => <input {...props} name="phone" type="tel" autoComplete="tel" maxLength={30} defaultValue={values?.phone} className={inputClass} />}
      </Field>
      <Field label="Asunto" error={errors.subject}>
        {(props) => <input {...props} name="subject" required maxLength={150} defaultValue={values?.subject} className={inputClass} />}
      </Field>
      <Field label="Mensaje" error={errors.message}>
        {(props) => (
          <textarea {...props} name="message" required rows={6} maxLength={CONTACT_MESSAGE_MAX} defaultValue={values?.message} className={inputClass} />
        )}
      </Field>
      <button type="submit" className={primaryButtonClass} disabled={sending}>
        {sending ? "Enviando..." : "Enviar mensaje"}
      </button>
    </Form>
  );
}
