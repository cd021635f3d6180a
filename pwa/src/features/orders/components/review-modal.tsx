import { type FormEvent } from 'react';
import { Controller } from 'react-hook-form';
import {
  isReviewFormIncomplete,
  messages,
  ReviewFormSchema,
  type ReviewForm,
} from '@skyport/shared';
import { Modal } from '../../../ui/modal.tsx';
import { RatingInput } from '../../../ui/rating.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';

export interface ReviewModalProps {
  open: boolean;
  onClose: () => void;
  /** Called with a complete review; the modal closes first. */
  onSubmit: (review: ReviewForm) => void;
  /** Called when a field is empty: the spec closes the modal and shows "Oops..." / "Complete all fields!". */
  onIncomplete: () => void;
  defaultName?: string;
  /** A refused review opened again to fix it (decision 017): what it said. */
  defaultReview?: { rating: number | null; comment: string };
}

/** The modal's values as typed: no rating until a star is picked. */
interface ReviewValues {
  name: string;
  rating: number | null;
  comment: string;
}

/** "Give us your feedback!": star rating, "Users name", "Your comment", "Publicar". */
export function ReviewModal({
  open,
  onClose,
  onSubmit,
  onIncomplete,
  defaultName = '',
  defaultReview,
}: ReviewModalProps) {
  const { control, register, formState, getValues, submit } = useSchemaForm<
    ReviewValues,
    ReviewForm
  >(ReviewFormSchema, {
    defaultValues: {
      name: defaultName,
      rating: defaultReview?.rating ?? null,
      comment: defaultReview?.comment ?? '',
    },
  });
  const { errors } = formState;
  const publish = submit((review) => {
    onClose();
    onSubmit(review);
  });
  const send = (event: FormEvent<HTMLFormElement>) => {
    // An empty field is not a field error: the spec closes the modal and says "Complete all fields!".
    if (isReviewFormIncomplete(getValues())) {
      event.preventDefault();
      onClose();
      onIncomplete();
      return;
    }
    void publish(event);
  };
  return (
    <Modal open={open} onClose={onClose} title={messages.reviewModalTitle}>
      <form onSubmit={send} noValidate className="flex flex-col gap-3" data-testid="review-form">
        <Controller
          control={control}
          name="rating"
          render={({ field }) => (
            <RatingInput
              name={field.name}
              label={uiLabels.rating}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        {errors.rating ? (
          <p className="text-sm text-error" data-testid="error-rating">
            {errors.rating.message}
          </p>
        ) : null}
        <FormField
          label={messages.reviewUsersName}
          autoComplete="name"
          error={errors.name}
          {...register('name')}
        />
        <FormField
          label={messages.reviewYourComment}
          id="review-comment"
          name="comment"
          error={errors.comment}
        >
          {(aria) => (
            <textarea
              rows={4}
              className={`textarea w-full ${errors.comment ? 'textarea-error' : ''}`}
              {...aria}
              {...register('comment')}
            />
          )}
        </FormField>
        <div className="modal-action mt-1">
          <button type="submit" className="btn btn-primary" data-testid="review-submit">
            {messages.reviewSubmit}
          </button>
        </div>
      </form>
    </Modal>
  );
}
