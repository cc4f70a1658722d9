import { ApiProperty } from '@nestjs/swagger';

/** What a dependency of the app is doing: answering, or not. */
export type DependencyState = 'up' | 'down';

/** Each dependency of the app by name, and its state. */
export class HealthDependencies {
  @ApiProperty({ enum: ['up', 'down'], example: 'up', description: 'MongoDB: "up" when it answers a ping' })
  database!: DependencyState;
}
