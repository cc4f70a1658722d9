import { Module, type DynamicModule } from '@nestjs/common';
import { CATALOG_OPTIONS, type CatalogAppOptions } from './catalog-options.interface.js';

/** Provides the {@link CatalogAppOptions} the app was created with to every module (global). */
@Module({})
export class CatalogOptionsModule {
  static forRoot(options: CatalogAppOptions): DynamicModule {
    return {
      module: CatalogOptionsModule,
      global: true,
      providers: [{ provide: CATALOG_OPTIONS, useValue: options }],
      exports: [CATALOG_OPTIONS],
    };
  }
}
