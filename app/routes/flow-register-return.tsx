/** Placeholder while Flow's card-registration return is built (issue 5). */
export default function Page() {
  return <h1 className="text-2xl font-bold">En construcción</h1>;
}
