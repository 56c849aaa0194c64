// The shared dictionary of the journal's block lists (blockCodec format 2): deflate looks back into
// it as if it came before each list, so the few hundred bytes of one document's blocks need not
// spell out again what every list holds (the row shape, the kinds and types, markdown syntax,
// common English words). The most frequent strings come last (nearest, so the cheapest to point
// at). NEVER change it: every list written with it needs it byte for byte to be read back; a
// better dictionary takes a new format number beside this one.
const WORDS = [
  'the of and to in is it that for you with on as are this be at or have from not by but what all were when we there can an your',
  'which their if do will each about how up out them then she many some so these would other into has more her two like him see',
  'time could no make than first been its who now people my made over did down only way find use may water long little very after',
  'words called just where most know get through back much before go good new write our used me man too any day same right look',
  'think also around another came come work three word must because does part even place well such here take why things help put',
  'years different away again off went old number great tell men say small every found still between name should home big give',
  'air line set own under read last never us left end along while might next sound below saw something thought both few those',
  "always looked show large often together asked house don't world going want school important until form food keep children feet",
  'land side without boy once animals life enough took sometimes four head above kind began almost live page got earth need far',
  'hand high year mother light parts country father let night following picture being study second eyes soon times story since',
].join(' ');

const TYPES = '"table","image","file","video","drawing","whiteboard","collectionItem","richUrl","line","collection",{"x":"deleted"}],{"x":"edited"}],{"h":"';
const SYNTAX = '```typescript\n```python\n```\n [link](https://www.) `code` ![image](https://';
const ROWS = [
  '[-1,4,0,"readonly","collection","',
  '[-1,3,0,"card","page","',
  '[-1,2,0,"page","page","',
  '[0,1,1,"block","text","- [x] ',
  '[-1,11,0,"block","text","### ',
  '[-1,10,0,"block","text","# ',
  '[-1,9,0,"block","text","## ',
  '[-1,8,0,"block","text","> ',
  '[-1,7,0,"block","text","1. ',
  '[-1,6,1,"block","text","  - ',
  '[-1,5,0,"block","code","```"],',
  '[0,1,1,"block","text","- [ ] ',
  ' **bold** *italic* ~~struck~~"],',
  '[[-1,0,0,"block","text","',
].join('"],');

export const BLOCK_DICTIONARY: Buffer = Buffer.from(`${WORDS} ${TYPES}${SYNTAX}${ROWS}`, 'utf8');
