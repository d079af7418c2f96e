// node scripts/build-city-index.ts: writes data/cities/index.json from the
// GeoNames data of the installed packages (src/build/city-index.ts); nothing is fetched.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildCityIndex, formatCityIndex } from '../src/build/city-index.ts';
import { CITY_INDEX_PATH } from '../src/server/cities/index-file.ts';

const index = buildCityIndex();
await mkdir(dirname(CITY_INDEX_PATH), { recursive: true });
await writeFile(CITY_INDEX_PATH, formatCityIndex(index));
console.log(`Wrote ${index.cities.length} cities of ${Object.keys(index.countries).length} countries to ${CITY_INDEX_PATH}`);
