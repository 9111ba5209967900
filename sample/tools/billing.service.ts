import { Injectable } from '@nestjs/common';

/** A stand-in for a side-effecting service: it records every charge so tests can count them. */
@Injectable()
export class BillingService {
  readonly charges: Array<{ userId: string; plan: string }> = [];

  charge(userId: string, plan: string): void {
    this.charges.push({ userId, plan });
  }
}
