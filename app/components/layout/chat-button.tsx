import { WhatsAppIcon } from "~/components/ui/icons";
import { whatsappLink } from "~/lib/whatsapp";

/** Floating WhatsApp-style chat button with the preset greeting (spec §2 Public layout). */
export function ChatButton({ number, greeting }: { number: string; greeting: string }) {
  return (
    <a
      href={whatsappLink(number, greeting)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Escríbenos por WhatsApp"
      data-testid="chat-button"
      className="no-print fixed right-5 bottom-5 z-40 flex h-14 w-14 items-center justify-center rounded-full bg-[#1a7f45] text-white shadow-lg transition hover:scale-105 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-[#1a7f45]"
    >
      <WhatsAppIcon />
    </a>
  );
}
