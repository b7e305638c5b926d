// Test support: a miniature copy of shared/data (same files, same columns, a few rows each) and a
// way to build a sample database from it with the real build script. The rows are taken from the
// real files, plus a few made up to exercise a rule (a second "Joel Kuipers" lot, an "ACME" owner
// written two ways, a permit with no SSL); they exist only in tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OTR = `ssl,ssl_as_published,square,suffix,lot,address,owner,neighborhood,sub_neighborhood,use_code,last_sale_price,last_sale_recordation_date,assessment_2016,homestead,square_lat,square_lon,otr_url
0065    0004,0065    0004,0065,,0004,1716 21ST ST NW,WILLIAM O BANK & HILDA O BANK,OLD CITY II,D,24,0,,1540590,yes,38.912976,-77.047037,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0065%20%20%20%200004
0065    0007,0065    0007,0065,,0007,1708 21ST ST NW,JOEL KUIPERS,OLD CITY II,D,24,1361000,2013-12-17,1302760,yes,38.912976,-77.047037,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0065%20%20%20%200007
0065    0008,0065    0008,0065,,0008,1706 21ST ST NW,THOMAS BRODY,OLD CITY II,D,24,0,,1244510,yes,38.912976,-77.047037,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0065%20%20%20%200008
0065    0010,0065    0010,0065,,0010,1702 21ST ST NW,Joel  Kuipers,OLD CITY II,D,11,950000,2016-06-01,900000,no,38.912976,-77.047037,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0065%20%20%20%200010
0451    0022,0451    0022,0451,,0022,1010 6TH ST NW,BRUNO A CHUMPITAZI MD PC,OLD CITY II,B,64,0,,1656250,no,38.902908,-77.020789,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0451%20%20%20%200022
0451    0022,BD0004510022,0451,,0022,1010 6TH ST NW,BRUNO A CHUMPITAZI MD PC,OLD CITY II,B,64,0,,,unknown,38.902908,-77.020789,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=BD0004510022
0484    2001,0484    2001,0484,,2001,555 MASSACHUSETTS AVE NW Unit: 101,"ACME, L.L.C.",OLD CITY II,B,17,483400,2006-01-20,526510,yes,38.901927,-77.0194,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0484%20%20%20%202001
0484    2002,0484    2002,0484,,2002,0555 MASSACHUSETTS AVE NW Unit : 00102,Acme LLC,OLD CITY II,B,17,0,2010-05-05,400000,no,38.901927,-77.0194,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=0484%20%20%20%202002
PI0002040015,PI0002040015,,,,2000 14TH ST NW,DUKES SHOE REPAIR,OLD CITY II,F,49,0,,68880,no,,,https://www.taxpayerservicecenter.com/RP_Detail.jsp?ssl=PI0002040015
`;

const PERMIT_HEADER =
  'OBJECTID,DCRAINTERNALNUMBER,ISSUE_DATE,PERMIT_ID,PERMIT_TYPE_NAME,PERMIT_SUBTYPE_NAME,PERMIT_CATEGORY_NAME,APPLICATION_STATUS_NAME,FULL_ADDRESS,DESC_OF_WORK,SSL,ZONING,PERMIT_APPLICANT,FEE_TYPE,FEES_PAID,OWNER_NAME,LASTMODIFIEDDATE,CITY,STATE,LATITUDE,LONGITUDE,XCOORD,YCOORD,ZIPCODE,MARADDRESSREPOSITORYID,DCSTATADDRESSKEY,DCSTATLOCATIONKEY,WARD,ANC,SMD,DISTRICT,PSA,NEIGHBORHOODCLUSTER,HOTSPOT2006NAME,HOTSPOT2005NAME,HOTSPOT2004NAME,BUSINESSIMPROVEMENTDISTRICT,YEAR,SSL_CANONICAL';

function permit(values: Record<string, string>): string {
  return PERMIT_HEADER.split(',')
    .map((column) => {
      const v = values[column] ?? '';
      return /[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
    })
    .join(',');
}

const PERMITS = [
  PERMIT_HEADER,
  permit({
    OBJECTID: '1', DCRAINTERNALNUMBER: '111500001', ISSUE_DATE: '2015-03-02T00:00:00.000Z', PERMIT_ID: 'B1500001',
    PERMIT_TYPE_NAME: 'CONSTRUCTION', PERMIT_SUBTYPE_NAME: 'NEW BUILDING', APPLICATION_STATUS_NAME: 'PERMIT ISSUED',
    FULL_ADDRESS: '1708 21ST ST NW', DESC_OF_WORK: 'NEW REAR DWELLING', SSL: '0065    0007', FEES_PAID: '100',
    OWNER_NAME: 'JOEL KUIPERS', LASTMODIFIEDDATE: '2016-01-10T00:00:00.000Z', CITY: 'WASHINGTON', STATE: 'DC',
    LATITUDE: '38.91298', LONGITUDE: '-77.04702', XCOORD: '396000.5', YCOORD: '138000.25', ZIPCODE: '20009',
    MARADDRESSREPOSITORYID: '240001', DCSTATADDRESSKEY: '1', DCSTATLOCATIONKEY: '1', WARD: '2', ANC: '2B', SMD: '2B01',
    DISTRICT: 'SECOND', PSA: '208', NEIGHBORHOODCLUSTER: '6', HOTSPOT2006NAME: 'NONE', HOTSPOT2005NAME: 'NONE',
    HOTSPOT2004NAME: 'NONE', BUSINESSIMPROVEMENTDISTRICT: 'NONE', YEAR: '2015', SSL_CANONICAL: '0065    0007',
  }),
  permit({
    OBJECTID: '2', DCRAINTERNALNUMBER: '111500002', ISSUE_DATE: '2015-06-01T00:00:00.000Z', PERMIT_ID: 'B1500002',
    PERMIT_TYPE_NAME: 'CONSTRUCTION', PERMIT_SUBTYPE_NAME: 'NEW BUILDING', APPLICATION_STATUS_NAME: 'COMPLETED',
    FULL_ADDRESS: '1716 21st Street NW', DESC_OF_WORK: 'NEW CARRIAGE HOUSE', FEES_PAID: '0.000000',
    LASTMODIFIEDDATE: '2015-12-01T00:00:00.000Z', LATITUDE: '0', LONGITUDE: '0', XCOORD: '0', YCOORD: '0',
    MARADDRESSREPOSITORYID: '-100', DCSTATADDRESSKEY: '-100', DCSTATLOCATIONKEY: '2', ANC: 'NONE', SMD: 'NONE',
    NEIGHBORHOODCLUSTER: 'NONE', HOTSPOT2006NAME: 'NONE', HOTSPOT2005NAME: 'NONE', HOTSPOT2004NAME: 'NONE',
    BUSINESSIMPROVEMENTDISTRICT: 'NONE', YEAR: '2015',
  }),
  permit({
    OBJECTID: '3', DCRAINTERNALNUMBER: '111110917', ISSUE_DATE: '2012-01-04T00:00:00.000Z', PERMIT_ID: 'B1110917',
    PERMIT_TYPE_NAME: 'CONSTRUCTION', PERMIT_SUBTYPE_NAME: 'NEW BUILDING', APPLICATION_STATUS_NAME: 'COMPLETED',
    FULL_ADDRESS: '1809 3RD ST NE', DESC_OF_WORK: 'A NEW CONSTRUCTION 2 UNIT FLAT.', SSL: '3570    0060', ZONING: 'R-4',
    FEE_TYPE: '632.40 (FILINGFEE);1129.47 (REVISION)', FEES_PAID: '1762', OWNER_NAME: '57TH STREET MEWS, INC',
    LASTMODIFIEDDATE: '2015-09-05T06:50:32.000Z', CITY: 'WASHINGTON', STATE: 'DC', LATITUDE: '38.914526', LONGITUDE: '-77.001745',
    XCOORD: '399848.62', YCOORD: '138517.81', ZIPCODE: '20002', MARADDRESSREPOSITORYID: '309673', DCSTATADDRESSKEY: '384652',
    DCSTATLOCATIONKEY: '307227', WARD: '5', ANC: '5C', SMD: '5C05', DISTRICT: 'FIFTH', PSA: '502', NEIGHBORHOODCLUSTER: '21',
    HOTSPOT2006NAME: 'NONE', HOTSPOT2005NAME: 'NONE', HOTSPOT2004NAME: 'NONE', BUSINESSIMPROVEMENTDISTRICT: 'NONE', YEAR: '2012',
    SSL_CANONICAL: '3570    0060',
  }),
  // Two real permits at unrelated places that both give the placeholder SSL 0000 0000: it must key
  // no parcel, or the two would read as one lot.
  permit({
    OBJECTID: '224975', DCRAINTERNALNUMBER: '111401123', ISSUE_DATE: '2014-01-22T00:00:00.000Z', PERMIT_ID: 'B1401123',
    PERMIT_TYPE_NAME: 'CONSTRUCTION', PERMIT_SUBTYPE_NAME: 'NEW BUILDING', APPLICATION_STATUS_NAME: 'COMPLETED',
    FULL_ADDRESS: '2600 INDEPENDENCE AVE SE', DESC_OF_WORK: 'TEMPORARY CONSTRUCTION TRAILERS FOR DC WATERS ANACOSTIA RIVER TUNNEL PROJECT.',
    SSL: '0000    0000', FEES_PAID: '2687', OWNER_NAME: 'IMPREGILO-HEALY-PARSONS JV', LASTMODIFIEDDATE: '2016-01-12T13:10:13.000Z',
    CITY: 'WASHINGTON', STATE: 'DC', LATITUDE: '38.885173', LONGITUDE: '-76.971946', XCOORD: '402434.03', YCOORD: '135259.72',
    ZIPCODE: '20003', MARADDRESSREPOSITORYID: '308191', DCSTATADDRESSKEY: '456323', DCSTATLOCATIONKEY: '392351', WARD: '7',
    ANC: '6B', SMD: '6B10', DISTRICT: 'FIRST', PSA: '108', NEIGHBORHOODCLUSTER: '26', HOTSPOT2006NAME: 'NONE',
    HOTSPOT2005NAME: 'NONE', HOTSPOT2004NAME: 'NONE', BUSINESSIMPROVEMENTDISTRICT: 'NONE', YEAR: '2014', SSL_CANONICAL: '0000    0000',
  }),
  permit({
    OBJECTID: '378350', DCRAINTERNALNUMBER: '111502153', ISSUE_DATE: '2015-08-19T00:00:00.000Z', PERMIT_ID: 'B1502153',
    PERMIT_TYPE_NAME: 'CONSTRUCTION', PERMIT_SUBTYPE_NAME: 'NEW BUILDING', APPLICATION_STATUS_NAME: 'PERMIT ISSUED',
    FULL_ADDRESS: '8400 RIVER RD NE', DESC_OF_WORK: 'IMPROVEMENTS TO THE VEHICLE ENTRANCE. THIS IS NOT A DC ADDRESS.',
    SSL: '0000    0000', FEES_PAID: '0', OWNER_NAME: 'DC GOVERNMENT', LASTMODIFIEDDATE: '2016-01-12T13:12:47.000Z',
    LATITUDE: '0', LONGITUDE: '0', XCOORD: '0', YCOORD: '0', MARADDRESSREPOSITORYID: '-100', DCSTATADDRESSKEY: '-100',
    DCSTATLOCATIONKEY: '0', ANC: 'NONE', SMD: 'NONE', NEIGHBORHOODCLUSTER: 'NONE', HOTSPOT2006NAME: 'NONE', HOTSPOT2005NAME: 'NONE',
    HOTSPOT2004NAME: 'NONE', BUSINESSIMPROVEMENTDISTRICT: 'NONE', YEAR: '2015', SSL_CANONICAL: '0000    0000',
  }),
].join('\n');

const CAMA = `index,BATHRM,HF_BATHRM,HEAT,AC,NUM_UNITS,ROOMS,BEDRM,AYB,YR_RMDL,STORIES,PRICE,QUALIFIED,SALE_NUM,GBA,STYLE_D,STRUCT_D,GRADE,CNDTN,EXTWALL,ROOF,INTWALL,KITCHENS,FIREPLACES,USECODE,LANDAREA,ZIPCODE,LATITUDE,LONGITUDE,CENSUS_TRACT,WARD
,2,1,Forced Air,Y,1,7,2,1900,2015,2,885000,Q,7,1256,2 Story,Row End,Average,Average,Stucco,Built Up,Hardwood,1,1,11,968,20008,38.91303458,-77.04704939,5502,Ward 2
,3,1,Warm Cool,Y,3,12,4,1910,2011,3,1495000,Q,1,2526,3 Story,Row Inside,Exceptional-A,Good,Common Brick,Metal- Sms,Hardwood,3,5,24,1307,20008,38.91277708,-77.04780215,4100,Ward 2
,2,1,Warm Cool,Y,1,6,2,1905,2020,3,664150,U,1,1200,3 Story,Row End,Very Good,Good,Common Brick,Clay Tile,Hardwood,2,2,24,268,20009,38.91361331,-77.04679956,5502,Ward 2
,4,1,Warm Cool,Y,2,12,5,1900,1998,3,1300000,Q,1,3096,3 Story,Row Inside,Exceptional-A,Good,Common Brick,Metal- Sms,Hardwood,2,2,24,1552,20008,38.91279425,-77.04788633,4100,Ward 2
,1,0,Forced Air,Y,1,6,3,1925,1990,2,450000,Q,1,1100,2 Story,Single,Average,Average,Siding,Comp Shingle,Hardwood,1,0,11,5000,20011,38.95,-77.0,1800,Ward 4
`;

const SQUARES = `square,suffix,lat,lon
0065,,38.912976,-77.047037
0451,,38.902908,-77.020789
0484,,38.901927,-77.0194
`;

const VA_PARCELS = `account_no,address,land_use,zoning,zip,lat,lon,address_point_objectid
13195000,201 E LURAY AV,DETACHED HOUSE,R 2-5,22301,38.817578,-77.059829,14130
14738505,2101/2 ADAMS AV,RES SUB PARCEL,RB,,,,
13615500,2109 E MT VERNON AV,GARDEN APT 3 ST OR <,CL,,,,
13615500,2109 E MT VERNON AV,GARDEN APT 3 ST OR <,CL,,,,
50318530,1 AUBURN CT UNIT 13B,CONDO (GARDEN),RA,,,,
`;

const VA_POINTS = `objectid,full_address,st_prefix,st_name,st_type,st_num,st_alpha,add_type,zip,lat,lon
14130,201 E LURAY AV,E,LURAY,AV,201,,BP,22301,38.817578,-77.059829
200,210 1/2 ADAMS AV,,ADAMS,AV,210,1/2,BP,22301,38.8163,-77.0612
300,2109 E MT VERNON AV,E,MT VERNON,AV,2109,,BP,22301,38.8201,-77.0581
400,1 AUBURN CT,,AUBURN,CT,1,,BP,22305,38.8301,-77.0601
`;

/** Writes the miniature input tree (dc/, dc/geo/, va/) into `dir`. */
export function writeSampleFixture(dir: string): void {
  const files: Record<string, string> = {
    'dc/otr_real_property_old_city_ii.csv': OTR,
    'dc/dcra_new_building_permits_2012_2016.csv': `${PERMITS}\n`,
    'dc/cama_residential_sample.csv': CAMA,
    'dc/geo/dc_square_centroids.csv': SQUARES,
    'va/alexandria_delray_parcels.csv': VA_PARCELS,
    'va/alexandria_address_points_22301_22305.csv': VA_POINTS,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

/** Builds a fixture database with `npm run sample-data`'s script; returns where it put it. */
export function buildSampleFixture(): { fromDir: string; outDir: string; dbPath: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'plat-sample-'));
  const fromDir = path.join(root, 'data');
  const outDir = path.join(root, 'out');
  writeSampleFixture(fromDir);
  const script = fileURLToPath(new URL('../../scripts/build-sample-data.ts', import.meta.url));
  const run = spawnSync(process.execPath, [script, '--from', fromDir, '--out', outDir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`sample fixture build failed: ${run.stderr || run.stdout}`);
  return { fromDir, outDir, dbPath: path.join(outDir, 'sample.db') };
}
