import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/profile";
import { changePassword, getProfile, updateProfile } from "@server/accounts/index.server";
import { listServedDistricts } from "@server/content/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AccountPageError } from "~/components/account/account-page";
import { ProfileView, ProfileEditForm } from "~/components/account/profile-forms";
import { ChangePasswordDialog } from "~/components/account/change-password-dialog";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { changePasswordSchema, fieldErrors, profileSchema } from "@core/account-schemas";
import { pageMeta, siteFromMatches } from "~/lib/seo";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { clientAddress, userContext } from "~/server/session.server";
import { accountWhatsappState, whatsappEnabled } from "@server/whatsapp/index.server";
import { whatsappNumber } from "@core/whatsapp";
import { mapTiles } from "~/server/map-tiles.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const profile = await getProfile(db, context.get(userContext).id);
  if (!profile) throw data("No se pudo obtener la información del usuario", { status: 404 });
  const params = new URL(request.url).searchParams;
  // Issue 25: whether the profile's number gets WhatsApp notices (null: the shop has no WhatsApp);
  // issue 39: only a number proven the account's does, and a ticked box waits for its SÍ.
  const whatsapp = whatsappEnabled() ? await accountWhatsappState(db, profile.id, whatsappNumber(profile.phone), new Date()) : null;
  return {
    profile,
    districts: await listServedDistricts(db),
    editing: params.has("editar"),
    saved: params.has("actualizado"),
    whatsapp,
    tiles: mapTiles(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = context.get(userContext);
  const form = Object.fromEntries(await readFormData(request));
  if (form.intent === "password") {
    const parsed = changePasswordSchema.safeParse(form);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      // Spec §5: one message for missing fields, whatever field is missing.
      const message = Object.values(errors).find((text) => text === "Por favor, completa todos los campos") ?? null;
      return data({ intent: "password" as const, ok: false, message, fieldErrors: message ? {} : errors }, { status: 400 });
    }
    const result = await changePassword(db, request, parsed.data);
    if (!result.ok) {
      return data(
        {
          intent: "password" as const,
          ok: false,
          message: result.field ? null : result.message,
          fieldErrors: result.field ? { [result.field]: result.message } : {},
        },
        { status: 400 },
      );
    }
    runJobSoon("emails");
    const headers = new Headers();
    for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return data({ intent: "password" as const, ok: true, message: "Contraseña actualizada correctamente", fieldErrors: {} }, { headers });
  }

  const parsed = profileSchema.safeParse(form);
  if (!parsed.success)
    return data({ intent: "profile" as const, ok: false, message: null, fieldErrors: fieldErrors(parsed.error), typed: form }, { status: 400 });
  const { whatsapp, ...update } = parsed.data;
  // Only a form that showed the box speaks for it (issue 25): without WhatsApp nothing changes.
  const whatsappChoice = whatsappEnabled()
    ? { optIn: whatsapp, clientAddress: clientAddress(request), userAgent: request.headers.get("user-agent") }
    : undefined;
  const result = await updateProfile(db, user.id, update, whatsappChoice).catch((error: unknown) => {
    console.error("Profile update failed", error);
    return { ok: false as const, message: null };
  });
  if (!result.ok && !result.message) {
    return data(
      {
        intent: "profile" as const,
        ok: false,
        message: "Error al guardar los cambios: no se pudo conectar con el servidor. Por favor, inténtalo de nuevo.",
        fieldErrors: {},
        typed: form,
      },
      { status: 500 },
    );
  }
  if (!result.ok)
    return data({ intent: "profile" as const, ok: false, message: null, fieldErrors: { districtId: result.message }, typed: form }, { status: 400 });
  return redirect("/dashboard/perfil?actualizado=1");
}

export const headers = () => privatePageHeaders;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(siteFromMatches(matches), {
    title: "Mi perfil",
    description: "Tus datos de contacto y entrega.",
    path: "/dashboard/perfil",
    robots: "noindex,nofollow",
  });

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountPageError
      error={error}
      title="Mi perfil"
      notFound="No se pudo obtener la información del usuario"
      failure="No se pudo cargar el perfil del usuario"
      unexpected="Error al cargar los datos del usuario"
      back={{ to: "/dashboard", label: "Volver a mi cuenta" }}
    />
  );
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const profileErrors = actionData?.intent === "profile" ? actionData : null;
  const editing = loaderData.editing || Boolean(profileErrors);
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Mi perfil</h1>
        <div className="flex flex-wrap items-center gap-3">
          <Link to="/preferencias-de-correo" className="font-semibold text-brand-800 underline">
            Preferencias de correo
          </Link>
          <ChangePasswordDialog />
        </div>
      </header>
      {editing ? (
        <ProfileEditForm
          profile={loaderData.profile}
          districts={loaderData.districts}
          errors={profileErrors?.fieldErrors ?? {}}
          message={profileErrors?.message ?? null}
          typed={profileErrors && "typed" in profileErrors ? (profileErrors.typed as Record<string, string>) : null}
          whatsapp={loaderData.whatsapp}
          tiles={loaderData.tiles}
        />
      ) : (
        <ProfileView profile={loaderData.profile} saved={loaderData.saved} whatsapp={loaderData.whatsapp} />
      )}
    </div>
  );
}
