/** Options of the injectable `SequenceService`; the SequenceService work fills this in. */
export interface SequenceModuleOptions {
  connectionName?: string;
}
