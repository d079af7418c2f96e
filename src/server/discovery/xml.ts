/** Text made safe inside an XML element or a double-quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
