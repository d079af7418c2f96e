/** The smallest population the city index keeps: the specification's cities of 15,000 or more. */
export const MIN_POPULATION = 15_000;

/** MIN_POPULATION as the documents and messages write it. */
export const MIN_POPULATION_TEXT = MIN_POPULATION.toLocaleString('en-US');
