/** Placeholder while the file download is built (issue 4). */
export function loader() {
  return new Response("Not Found", { status: 404 });
}
