import { describe, expect, it } from "vitest";
import { documentClasses, indexStylesheet, subsetFor } from "~/server/stylesheet-subset.server";

// The shape of Tailwind's built file (minified by Lightning CSS): layers, a grouped media block,
// escaped class names, registered properties and keyframes.
const STYLESHEET = [
  "@layer properties{@supports (-moz-orient:inline){*,:before{--tw-border-style:solid}}}",
  '@layer theme{:root,:host{--font-sans:"Roboto", sans-serif;--default-font-family:var(--font-sans);--color-brand-700:#0e7490;--color-red-700:#b91c1c;--spacing:.25rem;--radius-lg:.5rem}}',
  "@layer base{html{font-family:var(--default-font-family,sans-serif)}button{cursor:pointer}}",
  "@layer components;",
  "@layer utilities{.flex{display:flex}.hidden{display:none}.p-4{padding:calc(var(--spacing) * 4)}.bg-brand-700{background-color:var(--color-brand-700)}" +
    ".text-red-700{color:var(--color-red-700)}.rounded-lg{border-radius:var(--radius-lg)}.border{border-style:var(--tw-border-style);border-width:1px}" +
    ".w-1\\/2{width:50%}.\\[\\&\\>svg\\]\\:size-4>svg{width:1rem;height:1rem}.animate-spin{animation:var(--animate-spin, spin 1s linear infinite)}" +
    "@media (width>=48rem){.md\\:flex{display:flex}.md\\:hidden{display:none}}.hover\\:bg-brand-700:hover{background-color:var(--color-brand-700)}}",
  "@font-face{font-family:Roboto;src:url(/assets/roboto.woff2)}",
  "@keyframes splash-out{to{opacity:0}}",
  ".splash{animation:splash-out .2s}",
  "[data-reveal=hidden]{opacity:0}",
  '@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}',
  '@property --tw-rotate-x{syntax:"*";inherits:false}',
  "@keyframes spin{to{transform:rotate(360deg)}}",
].join("");

const index = indexStylesheet(STYLESHEET);

describe("the driver app's part of the stylesheet (decision 0086)", () => {
  it("reads the classes React wrote, with its escapes undone", () => {
    expect(documentClasses('<div class="flex  p-4"><span class="[&amp;&gt;svg]:size-4 w-1/2"></span><p class=""></p></div>')).toEqual(
      new Set(["flex", "p-4", "[&>svg]:size-4", "w-1/2"]),
    );
  });

  it("keeps the rules of the document's classes, one by one inside a grouped media block, in the file's order", () => {
    const css = subsetFor(index, '<main class="md:flex flex w-1/2 [&amp;&gt;svg]:size-4 hover:bg-brand-700"></main>');
    expect(css).toContain("@layer utilities{.flex{display:flex}.w-1\\/2{width:50%}.\\[\\&\\>svg\\]\\:size-4>svg{");
    expect(css).toContain("@media (width>=48rem){.md\\:flex{display:flex}}.hover\\:bg-brand-700:hover{");
    expect(css).not.toContain(".hidden");
    expect(css).not.toContain(".md\\:hidden");
    expect(css).not.toContain(".p-4");
    expect(css).not.toContain(".text-red-700");
    expect(css.indexOf(".flex{")).toBeLessThan(css.indexOf("@media"));
  });

  it("drops a media block none of whose classes the document uses", () => {
    expect(subsetFor(index, '<div class="flex"></div>')).not.toContain("@media");
  });

  it("keeps every page's statements: other layers, fonts, attribute rules", () => {
    const css = subsetFor(index, "<div></div>");
    for (const kept of ["@layer properties{", "@layer base{html{", "@layer components;", "@font-face{", "[data-reveal=hidden]{opacity:0}"])
      expect(css).toContain(kept);
    expect(css).not.toContain(".splash{");
  });

  it("keeps only the theme variables something kept reads, following one variable to another", () => {
    const css = subsetFor(index, '<div class="bg-brand-700 rounded-lg"></div>');
    expect(css).toContain(
      '@layer theme{:root,:host{--font-sans:"Roboto", sans-serif;--default-font-family:var(--font-sans);--color-brand-700:#0e7490;--radius-lg:.5rem}}',
    );
    expect(css).not.toContain("--color-red-700");
    expect(css).not.toContain("--spacing");
    // A variable the document's own inline style reads stays too.
    expect(subsetFor(index, '<div style="gap:var(--spacing)"></div>')).toContain("--spacing:.25rem");
  });

  it("keeps a registered property or keyframes only when a kept rule uses them", () => {
    const plain = subsetFor(index, '<div class="flex"></div>');
    expect(plain).not.toContain("@property --tw-border-style");
    expect(plain).not.toContain("@keyframes");
    const css = subsetFor(index, '<div class="border animate-spin splash"></div>');
    expect(css).toContain("@property --tw-border-style{");
    expect(css).not.toContain("@property --tw-rotate-x");
    expect(css).toContain("@keyframes spin{");
    expect(css).toContain("@keyframes splash-out{");
  });
});
