/**
 * A staff page's title line, with room for actions on the right (wrapping under it on a phone).
 * Kept apart from the staff frame so the frame's module is needed only by the admin layout route and
 * travels in that route's chunk (decision 0086).
 */
export function AdminPageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {children}
    </div>
  );
}
