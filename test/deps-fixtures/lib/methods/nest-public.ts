// expect: allowed (the public entry points of @nestjs/common and @nestjs/core)
import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

export const publicApi = [Injectable, Reflector];
