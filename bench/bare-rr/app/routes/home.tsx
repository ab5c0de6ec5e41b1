// The React Router template's welcome page: one route, a loader, a few links.
export function meta() {
  return [{ title: "New React Router App" }, { name: "description", content: "Welcome to React Router!" }];
}

export function loader() {
  return {
    resources: [
      { href: "https://reactrouter.com/docs", text: "React Router Docs" },
      { href: "https://rmx.as/discord", text: "Join Discord" },
    ],
  };
}

export function headers() {
  return { "Cache-Control": "public, max-age=60" };
}

export default function Home({ loaderData }: { loaderData: Awaited<ReturnType<typeof loader>> }) {
  return (
    <main>
      <h1>Welcome to React Router</h1>
      <nav aria-label="Resources">
        <p>What&apos;s next?</p>
        <ul>
          {loaderData.resources.map(({ href, text }) => (
            <li key={href}>
              <a href={href} target="_blank" rel="noreferrer">
                {text}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}
