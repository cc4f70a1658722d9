import { Module } from '@nestjs/common';
import { ObjectIdsController } from './object-ids.controller.js';

@Module({ controllers: [ObjectIdsController] })
export class ObjectIdsModule {}
