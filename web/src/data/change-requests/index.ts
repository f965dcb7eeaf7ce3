// Change requests: the user's drafts (which the flag pages add to) and the requests' own pages.
export * from './drafts';
export * from './requests';
