/**
 * Loading states appear only while deferred data streams in on a client-side navigation, which a
 * local database answers too fast to catch in a browser. Rendering the real route components with
 * data that has not arrived yet shows exactly what a visitor sees in that moment.
 */
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { SiteFooter } from "~/components/layout/site-footer";
import type { SiteInfo } from "~/lib/seo";
import Nosotros from "~/routes/storefront/nosotros";
import Tienda from "~/routes/storefront/tienda";

const pending = <T,>() => new Promise<T>(() => {});
// Route components also receive params and matches, which these pages do not read.
const TiendaPage = Tienda as unknown as React.ComponentType<{ loaderData: { products: Promise<never> } }>;
const NosotrosPage = Nosotros as unknown as React.ComponentType<{ loaderData: { organizations: Promise<never>; history: Promise<never> } }>;

const site: SiteInfo = {
  siteUrl: "http://localhost",
  brandName: "Vida Alcalina",
  contactEmail: "hola@vidaalcalina.pe",
  whatsappNumber: "51987654321",
  whatsappGreeting: "Hola",
  closingCtaLabel: "Compra ahora",
  whatsappNotices: false,
  issuer: { legalName: "VIDA ALCALINA S.A.C.", ruc: "20601234565", fiscalAddress: "Av. Benavides 1555, Miraflores" },
  social: { instagram: null, facebook: null, tiktok: null },
  socialLinks: [],
};

function render(element: React.ReactElement) {
  return renderToString(<MemoryRouter>{element}</MemoryRouter>);
}

describe("loading states", () => {
  it("shows 'Cargando productos…' while the shop's products load", () => {
    const html = render(<TiendaPage loaderData={{ products: pending() }} />);
    expect(html).toContain("Cargando productos…");
    expect(html).toContain("(Mínimo de compra S/50)");
  });

  it("shows three skeleton cards while the organisations load", () => {
    const html = render(<NosotrosPage loaderData={{ organizations: pending(), history: pending() }} />);
    expect(html).toContain('data-testid="organization-skeletons"');
    expect(html.match(/animate-pulse rounded-3xl/g)).toHaveLength(3);
  });

  it("shows the footer's loading text while the districts load", () => {
    const html = render(<SiteFooter site={site} districts={pending()} />);
    expect(html).toContain("Cargando distritos...");
  });
});
