import type { ReactNode } from "react";
import { Form, Link } from "react-router";

const fieldClass = "mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900";
const labelClass = "block text-sm font-semibold text-slate-700";

/**
 * The search box and filters of a staff list: a GET form, so the URL holds the search (links, the
 * back button and paging keep it) and it works without JavaScript. `children` are the filters.
 */
export function StaffListFilters(props: {
  action: string;
  /** The URL's filters as a query string: keying the form by it makes going back to another search show its values, not the last typed. */
  filterKey: string;
  ariaLabel: string;
  placeholder: string;
  q: string | undefined;
  /** Whether any filter is set, to offer "Limpiar filtros". */
  filtered: boolean;
  children: ReactNode;
}) {
  return (
    <Form
      method="get"
      action={props.action}
      key={props.filterKey}
      className="mb-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100"
      role="search"
      aria-label={props.ariaLabel}
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor="q" className={labelClass}>
            Buscar
          </label>
          <input id="q" name="q" type="search" defaultValue={props.q ?? ""} maxLength={120} placeholder={props.placeholder} className={fieldClass} />
        </div>
        <button type="submit" className="rounded-lg bg-brand-700 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          Buscar
        </button>
      </div>
      <div className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6">{props.children}</div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Aplicar filtros
        </button>
        {props.filtered && (
          <Link to={props.action} className="text-sm font-semibold text-brand-800 underline">
            Limpiar filtros
          </Link>
        )}
      </div>
    </Form>
  );
}

/** A filter among fixed values; the empty choice, "Todos", means no filter. */
export function FilterSelect({ id, label, value, options }: { id: string; label: string; value: string; options: { value: string; label: string }[] }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} name={id} defaultValue={value} className={fieldClass}>
        <option value="">Todos</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function FilterDate({ id, label, value }: { id: string; label: string; value: string | undefined }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input id={id} name={id} type="date" defaultValue={value ?? ""} className={fieldClass} />
    </div>
  );
}

/** The served districts, as the `distrito` filter of the staff lists. */
export function DistrictFilter({ value, districts }: { value: number | undefined; districts: { id: number; name: string }[] }) {
  return (
    <FilterSelect
      id="distrito"
      label="Distrito"
      value={value ? String(value) : ""}
      options={districts.map((district) => ({ value: String(district.id), label: district.name }))}
    />
  );
}
