/** The specification's operation ids, written out by hand: what the documents must list, whatever the code says. */
export const OPERATION_IDS = [
  'getArticles',
  'searchCities',
  'getAgentIdentity',
  'createTopicRequest',
  'createBugReport',
  'createComment',
  'getViewerVotes',
  'castVote',
  'createCitySubmission',
];
