import { useEffect, useRef } from "react";
import { NavLink, useLocation, type DiscoverBehavior } from "react-router";
import { MenuIcon } from "~/components/ui/icons";
import type { StaffMenuGroup, StaffMenuLink } from "./staff-menu";

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-2 text-sm font-semibold ${isActive ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"}`;

function isCurrent(link: StaffMenuLink, pathname: string): boolean {
  return pathname === link.to || (!link.end && pathname.startsWith(`${link.to}/`));
}

function MenuLinks({ links, discover }: { links: StaffMenuLink[]; discover: DiscoverBehavior }) {
  return links.map((link) => (
    <li key={link.to}>
      {/* NavLink marks the page it opens, and the pages below it, with aria-current="page". */}
      <NavLink discover={discover} to={link.to} end={link.end} className={linkClass}>
        {link.label}
      </NavLink>
    </li>
  ));
}

/** The groups, each a labelled list; `idPrefix` keeps the labels' ids apart between the phone and desktop copies. */
function MenuGroups({
  groups,
  idPrefix,
  className,
  listClassName,
  discover,
}: {
  groups: StaffMenuGroup[];
  idPrefix: string;
  className: string;
  listClassName: string;
  discover: DiscoverBehavior;
}) {
  return (
    <div className={className}>
      {groups.map((group, index) => (
        <div key={group.label} className="min-w-0">
          <p id={`${idPrefix}-${index}`} className="px-3 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            {group.label}
          </p>
          <ul aria-labelledby={`${idPrefix}-${index}`} className={listClassName}>
            <MenuLinks links={group.links} discover={discover} />
          </ul>
        </div>
      ))}
    </div>
  );
}

/**
 * The staff menu (decision 0082): the pages the signed-in role may open, grouped by job. From the
 * `md` width up the groups are laid out in a row; on a phone they sit behind one "Menú" button, a
 * `<details>` that opens without JavaScript. A role with a single group (the repartidor: their
 * route) gets its links as they are, with no button. `discover` is React Router's for every link
 * (`useLinkDiscovery()`, which the staff frame reads from the page's route).
 */
export function StaffNav({ groups, discover = "render" }: { groups: StaffMenuGroup[]; discover?: DiscoverBehavior }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  // A client-side navigation keeps the layout mounted, so the open phone menu is closed by hand.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  if (groups.length <= 1) {
    return (
      <nav aria-label="Back office" className="mx-auto max-w-7xl px-4 pb-2 sm:px-6">
        <ul className="flex flex-wrap gap-1">
          <MenuLinks links={groups[0]?.links ?? []} discover={discover} />
        </ul>
      </nav>
    );
  }

  const current = groups.flatMap((group) => group.links).find((link) => isCurrent(link, pathname));
  return (
    <nav aria-label="Back office" className="mx-auto max-w-7xl px-4 pb-2 sm:px-6">
      <details ref={menu} className="md:hidden" data-testid="staff-menu">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-slate-800 ring-1 ring-slate-200 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
          <MenuIcon className="h-5 w-5" />
          <span>Menú</span>
          {current && <span className="font-normal text-slate-600">· {current.label}</span>}
        </summary>
        <MenuGroups
          groups={groups}
          discover={discover}
          idPrefix="staff-menu-phone"
          className="mt-2 grid grid-cols-2 gap-x-2 gap-y-3"
          listClassName="mt-1 flex flex-col"
        />
      </details>
      <MenuGroups
        groups={groups}
        discover={discover}
        idPrefix="staff-menu"
        className="hidden flex-wrap gap-x-6 gap-y-2 md:flex"
        listClassName="flex flex-wrap gap-1"
      />
    </nav>
  );
}
