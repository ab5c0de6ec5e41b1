import { Suspense } from "react";
import { Await, Link } from "react-router";
import { SocialIcon } from "~/components/ui/icons";
import type { SiteInfo } from "~/lib/seo";

interface FooterDistrict {
  id: number;
  name: string;
}

/** Spec §2: served districts grouped 9 per row. */
export function chunkDistricts<T>(items: T[], size = 9): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}

function DistrictRows({ districts }: { districts: FooterDistrict[] }) {
  if (districts.length === 0) return <p className="text-brand-100">No hay distritos disponibles</p>;
  return (
    <div className="flex flex-col gap-3" data-testid="footer-districts">
      {chunkDistricts(districts).map((row, index) => (
        <ul key={index} className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-brand-50" data-testid="footer-district-row">
          {row.map((district) => (
            <li key={district.id}>{district.name}</li>
          ))}
        </ul>
      ))}
    </div>
  );
}

const socialNetworks = [
  { key: "instagram", label: "Instagram" },
  { key: "facebook", label: "Facebook" },
  { key: "tiktok", label: "TikTok" },
] as const;

export function SiteFooter({ site, districts }: { site: SiteInfo; districts: Promise<FooterDistrict[]> }) {
  const year = new Date().getFullYear();
  return (
    <footer className="no-print mt-16 bg-brand-900 text-white">
      <div className="mx-auto max-w-7xl px-4 pt-12 pb-24 sm:px-6">
        <section aria-labelledby="footer-districts-title">
          <h2 id="footer-districts-title" className="mb-4 text-xl font-bold">
            ¿A dónde llegamos?
          </h2>
          <Suspense fallback={<p className="text-brand-100">Cargando distritos...</p>}>
            <Await resolve={districts} errorElement={<p className="text-brand-100">No hay distritos disponibles</p>}>
              {(resolved) => <DistrictRows districts={resolved} />}
            </Await>
          </Suspense>
        </section>

        <div className="mt-10 flex flex-col gap-6 border-t border-brand-800 pt-8 md:flex-row md:items-center md:justify-between">
          <div>
            <p className="font-semibold">{site.brandName}</p>
            <p className="text-sm text-brand-100">
              Agua alcalina pH 8.5 con delivery en Lima ·{" "}
              <a className="underline hover:text-white" href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
            </p>
          </div>
          <nav aria-label="Legal">
            <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
              <li>
                <Link className="underline-offset-4 hover:underline" to="/terminos">
                  Términos y condiciones
                </Link>
              </li>
              <li>
                <Link className="underline-offset-4 hover:underline" to="/privacidad">
                  Política de privacidad
                </Link>
              </li>
              <li>
                <Link className="underline-offset-4 hover:underline" to="/contact">
                  Contacto
                </Link>
              </li>
              <li>
                <Link className="underline-offset-4 hover:underline" to="/libro-de-reclamaciones">
                  Libro de Reclamaciones
                </Link>
              </li>
            </ul>
          </nav>
          <ul className="flex gap-3" aria-label="Redes sociales">
            {socialNetworks.map(({ key, label }) => {
              const url = site.social[key];
              if (!url) return null;
              return (
                <li key={key}>
                  <a
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={label}
                    className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-800 hover:bg-brand-700"
                  >
                    <SocialIcon network={key} />
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
        <p className="mt-8 text-xs text-brand-100">
          © {year} {site.brandName}. Todos los derechos reservados.
        </p>
      </div>
    </footer>
  );
}
