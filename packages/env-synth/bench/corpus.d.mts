/** Absolute paths of the coverage corpus documents, in report order. */
export declare function corpusFiles(): string[];
