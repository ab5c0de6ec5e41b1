/**
 * The staff menu each role sees (issue 28, decision 0082), held to the access rules the role-matrix
 * browser test holds every guard to (tests/support/staff-route-rules.ts): a role is shown exactly
 * the menu pages it may open, grouped by job, and the current page is marked.
 */
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { STAFF_PERMISSIONS } from "@core/staff-permissions";
import { STAFF_ROLES, type StaffRole } from "@core/staff-roles";
import { STAFF_PAGE_PERMISSIONS, staffMenuFor, type StaffPage } from "~/components/admin/staff-menu";
import { StaffNav } from "~/components/admin/staff-nav";
import { STAFF_ROUTE_RULES } from "../support/staff-route-rules";

const MENU_PAGES = Object.keys(STAFF_PAGE_PERMISSIONS) as StaffPage[];

/** What the written-down rule says: the roles of the page's permission. */
function ruleAllows(role: StaffRole, page: string): boolean {
  const rule = STAFF_ROUTE_RULES[page];
  if (!rule) throw new Error(`No rule for ${page} in tests/support/staff-route-rules.ts`);
  return rule.allowed.includes(role);
}

const shownTo = (role: StaffRole) => staffMenuFor(role).flatMap((group) => group.links.map((link) => link.to));

describe("the staff menu per role", () => {
  it("guards each menu page with exactly the permission of its row in the access rules", () => {
    for (const page of MENU_PAGES) {
      expect(STAFF_PAGE_PERMISSIONS[page], page).toBe(STAFF_ROUTE_RULES[page]!.permission);
    }
  });

  it("lets the admin do everything (issue 10)", () => {
    for (const [permission, roles] of Object.entries(STAFF_PERMISSIONS)) expect(roles, permission).toContain("admin");
  });

  for (const role of STAFF_ROLES) {
    it(`shows ${role} only pages the access rules let them open, each once`, () => {
      const shown = shownTo(role);
      expect(new Set(shown).size).toBe(shown.length);
      for (const page of shown) expect(ruleAllows(role, page), page).toBe(true);
    });

    it(`leaves out of ${role}'s menu no page they may open (but a repartidor's Inicio), and no empty group`, () => {
      const shown = new Set<string>(shownTo(role));
      const hidden = MENU_PAGES.filter((page) => ruleAllows(role, page) && !shown.has(page));
      // A repartidor's Inicio only points to their route: their menu is the route alone.
      expect(hidden).toEqual(role === "repartidor" ? ["/admin"] : []);
      for (const group of staffMenuFor(role)) expect(group.links.length, group.label).toBeGreaterThan(0);
    });
  }

  it("gives the admin every page in five groups by job, and the repartidor their route alone", () => {
    const admin = staffMenuFor("admin");
    expect(admin.map((group) => group.label)).toEqual(["Operación", "Ventas", "Catálogo", "Atención", "Administración"]);
    expect(shownTo("admin").sort()).toEqual([...MENU_PAGES].sort());
    expect(staffMenuFor("repartidor")).toEqual([{ label: "Operación", links: [{ to: "/admin/reparto", label: "Reparto" }] }]);
    expect(staffMenuFor("operaciones").map((group) => group.label)).toEqual(["Operación", "Ventas", "Catálogo", "Atención"]);
  });

  it("marks the current page, and the section a sub-page belongs to, with aria-current", () => {
    const render = (path: string) =>
      renderToString(
        <MemoryRouter initialEntries={[path]}>
          <StaffNav groups={staffMenuFor("operaciones")} />
        </MemoryRouter>,
      );
    const current = (html: string) => [...html.matchAll(/<a[^>]*aria-current="page"[^>]*>([^<]*)<\/a>/g)].map((match) => match[1]);
    // Two copies of the menu (phone and desktop), the same link marked in each.
    expect(current(render("/admin/pedidos"))).toEqual(["Pedidos", "Pedidos"]);
    expect(current(render("/admin/pedidos/abc"))).toEqual(["Pedidos", "Pedidos"]);
    // Inicio is marked only on /admin itself, not on every page below it.
    expect(current(render("/admin"))).toEqual(["Inicio", "Inicio"]);
    // The phone menu's button names the page it is on.
    expect(render("/admin/pedidos")).toMatch(/<summary[^>]*>.*Menú<\/span><span[^>]*>· (<!-- -->)?Pedidos<\/span><\/summary>/);
  });
});
