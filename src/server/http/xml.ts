/** Text made safe inside an XML or HTML element or a quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
