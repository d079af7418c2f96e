/** Open Graph's recommended size: what Facebook, LinkedIn, Slack, Discord and X show whole. */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
