import { Injectable } from '@nestjs/common';
import { IsEmail, IsEnum, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { McpArgs, McpField, McpTool } from 'nest-mcp';

export enum Role {
  Admin = 'admin',
  Member = 'member',
}

/** Arguments as one DTO: class-validator decorators become the input schema. */
export class CreateUserDto {
  @McpField({ description: 'Display name' })
  @IsString()
  @MinLength(2)
  name!: string;

  @McpField({ description: 'Email address' })
  @IsEmail()
  email!: string;

  @McpField({ description: 'Age in years' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(150)
  age?: number;

  @McpField({ description: 'Role in the team' })
  @IsOptional()
  @IsEnum(Role)
  role?: Role;
}

@Injectable()
export class UserTools {
  private nextId = 1;

  @McpTool({ name: 'create-user', description: 'Creates a user from a validated DTO and returns it' })
  createUser(@McpArgs() user: CreateUserDto) {
    return { id: this.nextId++, ...user, role: user.role ?? Role.Member, isDto: user instanceof CreateUserDto };
  }
}
