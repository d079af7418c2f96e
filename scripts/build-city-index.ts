// node scripts/build-city-index.ts: writes data/cities/index.json from the
// GeoNames data of the installed packages (src/build/city-index.ts), and
// the lookups the server would otherwise work out at its first city search
// (src/server/cities/saved-lookups.ts); nothing is fetched.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildCityIndex, formatCityIndex } from '../src/build/city-index.ts';
import { CityIndex } from '../src/server/cities/city-index.ts';
import { CITY_INDEX_PATH } from '../src/server/cities/index-file.ts';
import { indexDigest, LOOKUPS_PATH, LookupsWriter } from '../src/server/cities/saved-lookups.ts';

const index = buildCityIndex();
const text = formatCityIndex(index);
const lookups = new LookupsWriter();
new CityIndex(index).save(lookups);
await mkdir(dirname(CITY_INDEX_PATH), { recursive: true });
await writeFile(CITY_INDEX_PATH, text);
await writeFile(LOOKUPS_PATH, lookups.bytes(indexDigest(text)));
console.log(
  `Wrote ${index.cities.length} cities of ${Object.keys(index.countries).length} countries to ${CITY_INDEX_PATH}, and their lookups`,
);
