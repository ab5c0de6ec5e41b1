import { useLocation, useNavigation } from "react-router";

/**
 * Issue 24, defect 10 (decision 0073): after a click on a link, the page being left stays on
 * screen, and used to stay editable, until the next page's data has arrived and React has drawn it
 * (a transition: the address bar already shows the new URL meanwhile). On a busy server that is
 * one to three seconds, and what a person typed then went into the old page's fields — the
 * product list's "Nuevo producto" form has the same "Nombre" as the product's page — and vanished
 * with it; the new page showed the stored value, and saving it said "Cambios guardados." with
 * nothing changed. While another page loads, every field of the one being left is disabled (a
 * disabled fieldset around the page, which takes no box of its own) and a bar at the top says the
 * page is changing. Searches that reload the same page (`?q=`) keep their fields usable.
 */
export function LeavingPageGuard({ children }: { children: React.ReactNode }) {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = navigation.state === "loading" && navigation.location.pathname !== pathname;
  return (
    <>
      {leaving && <div aria-hidden="true" data-testid="page-changing" className="fixed inset-x-0 top-0 z-[60] h-1 animate-pulse bg-brand-600" />}
      <fieldset disabled={leaving} aria-busy={leaving || undefined} className="contents">
        {children}
      </fieldset>
    </>
  );
}
