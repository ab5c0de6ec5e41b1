/** Placeholder while the page is built (issue 4). */
export default function Page() {
  return <h1 className="text-2xl font-bold">En construcción</h1>;
}
