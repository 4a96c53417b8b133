/** The parts of Frictionless's `datapackage` library (which ships no types) that the tests use. */
declare module 'datapackage' {
  export class Resource {
    readonly name: string;
    readonly tabular: boolean;
    read(options?: { keyed?: boolean; cast?: boolean }): Promise<unknown[]>;
  }
  export class Package {
    static load(descriptor: string | object, options?: { basePath?: string; strict?: boolean }): Promise<Package>;
    readonly valid: boolean;
    readonly errors: Error[];
    getResource(name: string): Resource;
  }
}
