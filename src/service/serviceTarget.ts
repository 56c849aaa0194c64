// What a service runs: the absolute paths of the node binary, of spacesync's entry script and of
// the mirror folder. Absolute, so the service manager needs no PATH (nvm, a user npm prefix or a
// clone install all work).
export interface ServiceTarget {
  node: string;
  script: string;
  dir: string;
}
