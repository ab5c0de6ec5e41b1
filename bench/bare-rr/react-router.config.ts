import type { Config } from "@react-router/dev/config";

// The shop's own settings (../../react-router.config.ts), minus nothing that changes the work a page does.
export default {
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
  future: { v8_middleware: true, v8_splitRouteModules: true, v8_viteEnvironmentApi: true },
} satisfies Config;
