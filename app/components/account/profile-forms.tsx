import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { Profile } from "@server/accounts/index.server";
import type { ServedDistrict } from "@server/content/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { Field, inputClass } from "~/components/ui/form-field";
import { documentTypeLabels } from "@core/documents";
import { WhatsappOptInCheckbox } from "~/components/consent/whatsapp-opt-in-checkbox";
import { limaPointSchema, type GeoPoint } from "@core/geo";
import { LocationPicker, type MapTiles } from "~/components/map/location-picker";

/** Spec §4: 'Perfil actualizado correctamente' hides after 3 s. */
const SAVED_MESSAGE_MS = 3000;

/** Issue 39: "asked" while the number's SÍ is awaited (the profile's box asked it by WhatsApp). */
export type ProfileWhatsappState = "on" | "asked" | "off" | null;

const WHATSAPP_STATE_TEXT = { on: "Activados", asked: "Te enviamos un WhatsApp: responde SÍ para activarlos", off: "Desactivados" } as const;

export function ProfileView({ profile, saved, whatsapp }: { profile: Profile; saved: boolean; whatsapp: ProfileWhatsappState }) {
  const [showSaved, setShowSaved] = useState(saved);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setShowSaved(false), SAVED_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [saved]);
  const rows: [string, string | null][] = [
    ["Nombre", profile.firstName],
    ["Apellido", profile.lastName],
    ["Correo electrónico", profile.email],
    ["Celular", profile.phone],
    [
      "Documento",
      profile.documentType
        ? `${documentTypeLabels[profile.documentType as keyof typeof documentTypeLabels] ?? profile.documentType} ${profile.documentNumber ?? ""}`
        : null,
    ],
    ["Distrito", profile.districtName],
    ["Dirección", profile.address],
    ...(whatsapp === null ? [] : [["Avisos por WhatsApp", WHATSAPP_STATE_TEXT[whatsapp]] as [string, string]]),
    ["Ubicación en el mapa", profile.point ? "Marcada" : "Sin marcar: usamos el centro de tu distrito"],
  ];
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6" aria-labelledby="profile-data">
      {showSaved && <FormAlert tone="success">Perfil actualizado correctamente</FormAlert>}
      <div className="mt-2 flex items-center justify-between">
        <h2 id="profile-data" className="text-lg font-bold">
          Datos personales
        </h2>
        <Link to="?editar=1" className="rounded-full border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Editar
        </Link>
      </div>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-slate-500">{label}</dt>
            <dd className="font-medium break-words">{value || "—"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ProfileEditForm({
  profile,
  districts,
  errors,
  message,
  typed,
  whatsapp,
  tiles,
}: {
  profile: Profile;
  districts: ServedDistrict[];
  errors: Record<string, string>;
  message: string | null;
  typed: Record<string, string> | null;
  /** Issue 25: the profile number's WhatsApp opt-in now; null when the shop has no WhatsApp. */
  whatsapp: ProfileWhatsappState;
  tiles: MapTiles;
}) {
  const busy = useNavigation().state === "submitting";
  // Issue 26: the pin as typed after a refusal (when it was a valid point), else the stored one.
  const [point, setPoint] = useState<GeoPoint | null>(() => {
    if (!typed) return profile.point;
    const parsed = limaPointSchema.safeParse({ lat: typed.lat, lng: typed.lng });
    return parsed.success ? parsed.data : null;
  });
  const centre = districts.find((district) => district.id === profile.districtId)?.center ?? null;
  // After a refused save the form shows what was typed, not what is stored.
  const value = (field: keyof Profile & string) => (typed ? (typed[field] ?? "") : String(profile[field] ?? ""));
  const summary = message ?? errors.firstName ?? errors.lastName;
  return (
    <Form method="post" className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6" noValidate>
      <input type="hidden" name="intent" value="profile" />
      {summary && <FormAlert>{summary}</FormAlert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Nombre" error={errors.firstName}>
          {(props) => <input {...props} name="firstName" autoComplete="given-name" defaultValue={value("firstName")} className={inputClass} />}
        </Field>
        <Field label="Apellido" error={errors.lastName}>
          {(props) => <input {...props} name="lastName" autoComplete="family-name" defaultValue={value("lastName")} className={inputClass} />}
        </Field>
        <Field label="Correo electrónico">
          {(props) => (
            <>
              <input {...props} value={profile.email} readOnly disabled className={inputClass} />
              <span className="mt-1 block text-xs text-slate-500">El correo no se puede modificar</span>
            </>
          )}
        </Field>
        <Field label="Celular" error={errors.phone}>
          {(props) => (
            <input {...props} name="phone" type="tel" inputMode="numeric" autoComplete="tel-national" defaultValue={value("phone")} className={inputClass} />
          )}
        </Field>
        <Field label="Tipo de documento" error={errors.documentType}>
          {(props) => (
            <select {...props} name="documentType" defaultValue={value("documentType")} className={inputClass}>
              <option value="">Sin documento</option>
              {Object.entries(documentTypeLabels).map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Número de documento" error={errors.documentNumber}>
          {(props) => <input {...props} name="documentNumber" defaultValue={value("documentNumber")} className={inputClass} />}
        </Field>
        <Field label="Distrito" error={errors.districtId}>
          {(props) => (
            <select {...props} name="districtId" defaultValue={value("districtId")} className={inputClass}>
              <option value="">Selecciona tu distrito</option>
              {districts.length === 0 && <option disabled>No hay distritos disponibles</option>}
              {districts.map((district) => (
                <option key={district.id} value={district.id}>
                  {district.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Dirección" error={errors.address}>
          {(props) => <input {...props} name="address" autoComplete="street-address" defaultValue={value("address")} className={inputClass} />}
        </Field>
        <WhatsappOptInCheckbox name="whatsapp" defaultChecked={typed ? typed.whatsapp === "on" : whatsapp === "on" || whatsapp === "asked"} />
        <LocationPicker
          value={point}
          onChange={setPoint}
          tiles={tiles}
          openAt={centre}
          addressText={[value("address"), profile.districtName].filter(Boolean).join(", ")}
          names={{ lat: "lat", lng: "lng" }}
          error={errors.ubicacion}
          hint="Ayuda al repartidor a llegar a tu puerta; la usamos en tus próximos pedidos. Si no la marcas, usamos el centro de tu distrito."
        />
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={busy} className="rounded-full bg-brand-700 px-6 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
          {busy ? "Guardando..." : "Guardar cambios"}
        </button>
        <Link to="/dashboard/perfil" className="rounded-full border border-slate-300 px-6 py-2.5 font-semibold text-slate-700 hover:bg-slate-50">
          Cancelar
        </Link>
      </div>
    </Form>
  );
}
